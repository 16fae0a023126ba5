def solve(a):
    return " ".join(map(str, reversed(a)))


a = list(map(int, input().split()))
print(solve(a))
