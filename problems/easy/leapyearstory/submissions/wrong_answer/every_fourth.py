# Forgets the rule for centuries.
def solve(y):
    return "YES" if y % 4 == 0 else "NO"


y = int(input())
print(solve(y))
