def solve(a):
    low, best = a[0], 0
    for x in a:
        low = min(low, x)
        best = max(best, x - low)
    return best


t = int(input())
for i in range(1, t + 1):
    n = int(input())
    a = list(map(int, input().split()))
    print(f"Case #{i}: {solve(a)}")
