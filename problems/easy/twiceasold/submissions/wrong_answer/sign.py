# Solves f - x = 2(s - x): counts the years into the past as positive, the sign flipped.
def solve(f, s):
    return 2 * s - f


f, s = map(int, input().split())
print(solve(f, s))
