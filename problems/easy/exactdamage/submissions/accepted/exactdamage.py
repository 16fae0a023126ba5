def solve(a, b, c):
    for x in range(c // a + 1):
        if (c - a * x) % b == 0:
            return "YES"
    return "NO"


a, b, c = map(int, input().split())
print(solve(a, b, c))
