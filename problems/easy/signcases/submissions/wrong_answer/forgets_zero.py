# Calls zero positive.
def solve(n):
    return "positive" if n >= 0 else "negative"


t = int(input())
for i in range(1, t + 1):
    n = int(input())
    print(solve(n))
