def solve(s):
    depth = 0
    for c in s:
        depth += 1 if c == "(" else -1
        if depth < 0:
            return "NO"
    return "YES" if depth == 0 else "NO"


t = int(input())
for i in range(1, 1 + 1):
    s = input()
    print(solve(s))
