import sys


# Assumes the shorter word always begins the longer one and answers its length.
def solve(s):
    u, v = s.split(" ")
    return min(len(u), len(v))


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
