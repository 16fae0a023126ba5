import sys


# Compares neighbouring letters only.
def solve(s):
    return "NO" if any(s[i] == s[i + 1] for i in range(len(s) - 1)) else "YES"


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
