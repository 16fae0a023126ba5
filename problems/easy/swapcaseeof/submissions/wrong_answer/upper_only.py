import sys


# Makes every letter upper case.
def solve(s):
    return s.upper()


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
