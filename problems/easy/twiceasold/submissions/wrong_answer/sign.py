# Solves 2(f + x) = s + x: the equation with the roles of father and son swapped.
def solve(f, s):
    return 2 * s - f


f, s = map(int, input().split())
print(solve(f, s))
