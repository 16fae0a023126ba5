def solve(a):
    return a.count(max(a))


n, *a = map(int, input().split())
print(solve(a))
