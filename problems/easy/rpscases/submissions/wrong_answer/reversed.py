# Has the rules backwards: scissors beat rock, paper beats scissors, rock beats paper.
BEATS = {"scissors": "rock", "paper": "scissors", "rock": "paper"}


def solve(s):
    a, b = s.split(" ")
    if a == b:
        return "draw"
    return "first" if BEATS[a] == b else "second"


t = int(input())
for i in range(1, t + 1):
    s = input()
    print(solve(s))
