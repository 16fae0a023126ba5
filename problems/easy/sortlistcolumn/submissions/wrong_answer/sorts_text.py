import sys


# Sorts the numbers as text: "10" comes before "9".
def solve(a):
    return " ".join(sorted(map(str, a)))


a = list(map(int, sys.stdin.read().split()))
print(solve(a))
