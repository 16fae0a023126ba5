def solve(r, c):
    rows = 2 if r in (1, 8) else 3
    cols = 2 if c in (1, 8) else 3
    return rows * cols - 1


r, c = map(int, input().split())
print(solve(r, c))
