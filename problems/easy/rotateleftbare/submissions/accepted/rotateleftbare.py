def solve(a):
    return " ".join(map(str, a[1:] + a[:1]))


a = list(map(int, input().split()))
print(solve(a))
