def solve(a, p):
    return (3 * a + p) // 2


a, p = map(int, input().split())
print(solve(a, p))
