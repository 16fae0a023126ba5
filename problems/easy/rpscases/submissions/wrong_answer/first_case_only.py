BEATS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}


def solve(s):
    a, b = s.split(" ")
    if a == b:
        return "draw"
    return "first" if BEATS[a] == b else "second"


t = int(input())
for i in range(1, 1 + 1):
    s = input()
    print(solve(s))
