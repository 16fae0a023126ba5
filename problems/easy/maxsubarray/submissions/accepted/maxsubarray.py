def solve(a):
    best = current = a[0]
    for x in a[1:]:
        current = max(x, current + x)
        best = max(best, current)
    return best


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
