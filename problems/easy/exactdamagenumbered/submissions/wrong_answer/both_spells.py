# Casts each spell at least once.
def solve(a, b, c):
    for x in range(1, c // a + 1):
        rest = c - a * x
        if rest > 0 and rest % b == 0:
            return "YES"
    return "NO"


t = int(input())
for i in range(1, t + 1):
    a, b, c = map(int, input().split())
    print(f"Case #{i}: {solve(a, b, c)}")
