VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def solve(s):
    total = 0
    for i, c in enumerate(s):
        if i + 1 < len(s) and VALUES[c] < VALUES[s[i + 1]]:
            total -= VALUES[c]
        else:
            total += VALUES[c]
    return total


t = int(input())
answers = []
for i in range(1, 1 + 1):
    s = input()
    answers.append(str(solve(s)))
print(" ".join(answers))
