def solve(a):
    total = sum(a)
    return sum(1 for x in a if x * len(a) > total)


n, *a = map(int, input().split())
print(solve(a))
