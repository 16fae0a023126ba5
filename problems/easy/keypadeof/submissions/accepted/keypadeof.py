import sys


KEYS = "22233344455566677778889999"


def solve(s):
    return "".join(KEYS[ord(c) - ord("a")] for c in s)


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
