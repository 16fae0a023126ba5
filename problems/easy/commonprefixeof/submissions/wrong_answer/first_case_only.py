import sys


def solve(s):
    u, v = s.split(" ")
    k = 0
    while k < len(u) and k < len(v) and u[k] == v[k]:
        k += 1
    return k


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(line))
