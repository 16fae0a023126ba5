def solve(a):
    return sum(1 for x in a if x % 2 == 0)


n, *a = map(int, input().split())
print(solve(a))
