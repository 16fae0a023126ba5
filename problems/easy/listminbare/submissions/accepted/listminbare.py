def solve(a):
    return min(a)


a = list(map(int, input().split()))
print(solve(a))
