# Forgets the rule for centuries.
def solve(y):
    return "YES" if y % 4 == 0 else "NO"


t = int(input())
for i in range(1, t + 1):
    y = int(input())
    print(f"Case #{i}: {solve(y)}")
