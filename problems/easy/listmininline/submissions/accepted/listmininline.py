def solve(a):
    return min(a)


n, *a = map(int, input().split())
print(solve(a))
