import sys


# Compares the first and the last letter only.
def solve(s):
    return "YES" if s[0] == s[-1] else "NO"


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
