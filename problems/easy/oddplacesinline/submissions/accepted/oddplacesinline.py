def solve(a):
    return sum(a[0::2])


n, *a = map(int, input().split())
print(solve(a))
