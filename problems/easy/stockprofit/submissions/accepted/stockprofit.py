def solve(a):
    low, best = a[0], 0
    for x in a:
        low = min(low, x)
        best = max(best, x - low)
    return best


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
