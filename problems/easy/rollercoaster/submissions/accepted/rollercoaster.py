def solve(h, c):
    if h >= 140:
        return "YES"
    if h >= 120 and c == 1:
        return "YES"
    return "NO"


h, c = map(int, input().split())
print(solve(h, c))
