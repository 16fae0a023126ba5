import sys


def solve(w, h):
    return f"{2 * (w + h)} {w * h}"


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
