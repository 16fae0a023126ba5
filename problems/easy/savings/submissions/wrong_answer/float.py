# Grows the balance in floating point: it is never rounded down to whole coins.
def solve(s, p, g):
    x = s
    years = 0
    while x < g:
        x = x * (100 + p) / 100
        years += 1
    return years


s, p, g = map(int, input().split())
print(solve(s, p, g))
