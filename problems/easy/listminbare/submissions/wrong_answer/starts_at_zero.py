# Starts the minimum at 0: wrong when every value is positive.
def solve(a):
    best = 0
    for x in a:
        if x < best:
            best = x
    return best


a = list(map(int, input().split()))
print(solve(a))
