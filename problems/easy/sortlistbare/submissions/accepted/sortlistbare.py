def solve(a):
    return " ".join(map(str, sorted(a)))


a = list(map(int, input().split()))
print(solve(a))
