import sys


# Capitalizes only the first letter of every word.
def solve(s):
    return s.title()


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
