import sys


# Puts a space between the copies.
def solve(s):
    w, k = s.split(" ")
    return " ".join([w] * int(k))


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
