def solve(x1, y1, x2, y2, p, q):
    return "YES" if x1 <= p <= x2 and y1 <= q <= y2 else "NO"


x1, y1, x2, y2, p, q = map(int, input().split())
print(solve(x1, y1, x2, y2, p, q))
