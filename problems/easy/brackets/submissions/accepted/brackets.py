def solve(s):
    depth = 0
    for c in s:
        depth += 1 if c == "(" else -1
        if depth < 0:
            return "NO"
    return "YES" if depth == 0 else "NO"


s = input()
print(solve(s))
