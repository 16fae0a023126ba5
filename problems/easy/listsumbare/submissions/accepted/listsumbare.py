def solve(a):
    return sum(a)


a = list(map(int, input().split()))
print(solve(a))
