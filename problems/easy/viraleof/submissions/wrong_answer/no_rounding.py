import sys


# Grows the viewers by half of them each day, shown * 3 // 2, without rounding
# the likes down first.
def solve(n):
    shown = 5
    likes = 0
    for _ in range(n):
        likes += shown // 2
        shown = shown * 3 // 2
    return likes


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
