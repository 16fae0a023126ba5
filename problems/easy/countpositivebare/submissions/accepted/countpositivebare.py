def solve(a):
    return sum(1 for x in a if x > 0)


a = list(map(int, input().split()))
print(solve(a))
