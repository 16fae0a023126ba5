import sys


# Keeps the letters in lower case.
def solve(s):
    return "".join(w[0] for w in s.split())


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
