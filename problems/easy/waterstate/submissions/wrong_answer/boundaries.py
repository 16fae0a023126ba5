# Freezes at 0 and boils at 100: both ends of the liquid range are wrong.
def solve(t):
    if t <= 0:
        return "ice"
    if t >= 100:
        return "steam"
    return "water"


t = int(input())
print(solve(t))
