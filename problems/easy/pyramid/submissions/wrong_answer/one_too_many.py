# Stops only once the cubes have run out: the unfinished level is counted too.
def solve(n):
    levels = 0
    used = 0
    while used <= n:
        levels += 1
        used += levels * (levels + 1) // 2
    return levels


n = int(input())
print(solve(n))
