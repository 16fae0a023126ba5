import sys


def solve(n):
    shown = 5
    likes = 0
    for _ in range(n):
        liked = shown // 2
        likes += liked
        shown = liked * 3
    return likes


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(*map(int, line.split())))
