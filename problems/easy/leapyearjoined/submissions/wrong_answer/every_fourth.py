# Forgets the rule for centuries.
def solve(y):
    return "YES" if y % 4 == 0 else "NO"


t = int(input())
answers = []
for i in range(1, t + 1):
    y = int(input())
    answers.append(str(solve(y)))
print(" ".join(answers))
