# Starts the best sum at 0, as if an empty block were allowed: a list of negative values gets 0.
def solve(a):
    best = current = 0
    for x in a:
        current = max(0, current + x)
        best = max(best, current)
    return best


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
