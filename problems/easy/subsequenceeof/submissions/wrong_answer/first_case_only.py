import sys


def solve(s):
    u, v = s.split(" ")
    i = 0
    for c in v:
        if i < len(u) and u[i] == c:
            i += 1
    return "YES" if i == len(u) else "NO"


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(line))
