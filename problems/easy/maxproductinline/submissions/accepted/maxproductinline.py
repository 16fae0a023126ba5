def solve(a):
    b = sorted(a)
    return max(b[0] * b[1], b[-1] * b[-2])


n, *a = map(int, input().split())
print(solve(a))
