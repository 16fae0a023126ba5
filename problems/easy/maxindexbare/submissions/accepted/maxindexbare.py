def solve(a):
    return a.index(max(a)) + 1


a = list(map(int, input().split()))
print(solve(a))
