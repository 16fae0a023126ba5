def solve(a):
    return max(a)


a = list(map(int, input().split()))
print(solve(a))
