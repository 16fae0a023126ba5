# Adds every letter's value, forgetting that a smaller letter before a larger one is subtracted: IV comes out 6.
VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def solve(s):
    return sum(VALUES[c] for c in s)


t = int(input())
answers = []
for i in range(1, t + 1):
    s = input()
    answers.append(str(solve(s)))
print(" ".join(answers))
