def solve(a):
    return min(a, key=lambda x: (abs(x), -x))


a = list(map(int, input().split()))
print(solve(a))
