def solve(a):
    return " ".join(map(str, sorted(a)))


n, *a = map(int, input().split())
print(solve(a))
