def solve(a):
    return sum(a)


n, *a = map(int, input().split())
print(solve(a))
