def solve(a, b, c):
    for x in range(c // a + 1):
        if (c - a * x) % b == 0:
            return "YES"
    return "NO"


t = int(input())
for i in range(1, 1 + 1):
    a, b, c = map(int, input().split())
    print(f"Case #{i}: {solve(a, b, c)}")
