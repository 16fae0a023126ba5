def solve(a):
    return sum(1 for i in range(1, len(a)) if a[i] > a[i - 1])


n, *a = map(int, input().split())
print(solve(a))
