def solve(a):
    return max(a)


n, *a = map(int, input().split())
print(solve(a))
