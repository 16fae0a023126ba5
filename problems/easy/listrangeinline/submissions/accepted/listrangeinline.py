def solve(a):
    return max(a) - min(a)


n, *a = map(int, input().split())
print(solve(a))
