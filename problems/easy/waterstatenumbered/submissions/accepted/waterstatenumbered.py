def solve(t):
    if t < 0:
        return "ice"
    if t > 100:
        return "steam"
    return "water"


t = int(input())
for i in range(1, t + 1):
    t = int(input())
    print(f"Case #{i}: {solve(t)}")
