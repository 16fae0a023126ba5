def solve(a):
    return " ".join(map(str, reversed(a)))


n, *a = map(int, input().split())
print(solve(a))
