def solve(a):
    return max(a) - min(a)


a = list(map(int, input().split()))
print(solve(a))
