# Casts each spell at least once.
def solve(a, b, c):
    for x in range(1, c // a + 1):
        rest = c - a * x
        if rest > 0 and rest % b == 0:
            return "YES"
    return "NO"


a, b, c = map(int, input().split())
print(solve(a, b, c))
