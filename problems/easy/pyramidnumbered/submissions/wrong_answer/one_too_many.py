# Stops only once the cubes have run out: the unfinished level is counted too.
def solve(n):
    levels = 0
    used = 0
    while used <= n:
        levels += 1
        used += levels * (levels + 1) // 2
    return levels


t = int(input())
for i in range(1, t + 1):
    n = int(input())
    print(f"Case #{i}: {solve(n)}")
