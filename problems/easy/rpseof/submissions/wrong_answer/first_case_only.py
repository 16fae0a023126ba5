import sys


BEATS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}


def solve(s):
    a, b = s.split(" ")
    if a == b:
        return "draw"
    return "first" if BEATS[a] == b else "second"


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(line))
