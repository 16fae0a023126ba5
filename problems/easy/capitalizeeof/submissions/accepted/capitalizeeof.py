import sys


def solve(s):
    return " ".join(w[0].upper() + w[1:] for w in s.split(" "))


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
