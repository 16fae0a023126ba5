import sys


# Forgets the vowel u.
def solve(s):
    return sum(1 for c in s if c in "aeio")


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
