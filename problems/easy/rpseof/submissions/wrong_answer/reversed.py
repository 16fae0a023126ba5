import sys


# Has the rules backwards: scissors beat rock, paper beats scissors, rock beats paper.
BEATS = {"scissors": "rock", "paper": "scissors", "rock": "paper"}


def solve(s):
    a, b = s.split(" ")
    if a == b:
        return "draw"
    return "first" if BEATS[a] == b else "second"


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
