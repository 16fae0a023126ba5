def solve(a, u, b, v):
    if a == b:
        return "YES"
    if u == v:
        return "NO"
    gap = b - a
    closing = u - v
    if gap % closing == 0 and gap // closing > 0:
        return "YES"
    return "NO"


a, u, b, v = map(int, input().split())
print(solve(a, u, b, v))
