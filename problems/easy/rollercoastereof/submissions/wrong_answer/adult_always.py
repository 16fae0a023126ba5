import sys


# Lets any rider on with an adult, forgetting the 120 cm minimum.
def solve(h, c):
    return "YES" if h >= 140 or c == 1 else "NO"


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
