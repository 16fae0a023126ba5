import sys


# Adds the numbers as text: 3 and 4 give 34.
def solve(a, b):
    return str(a) + str(b)


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
