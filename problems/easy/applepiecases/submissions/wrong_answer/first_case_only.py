def solve(a, p):
    return (3 * a + p) // 2


t = int(input())
for i in range(1, 1 + 1):
    a, p = map(int, input().split())
    print(solve(a, p))
