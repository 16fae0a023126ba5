import sys


def solve(s):
    w, k = s.split(" ")
    return w * int(k)


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
