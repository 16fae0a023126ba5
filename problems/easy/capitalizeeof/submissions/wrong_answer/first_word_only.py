import sys


# Capitalizes the first word only.
def solve(s):
    return s[0].upper() + s[1:]


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
