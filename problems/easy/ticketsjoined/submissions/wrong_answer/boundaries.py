# Puts the boundary ages on the wrong side.
def solve(x):
    if x <= 12:
        return 5
    if x > 65:
        return 7
    return 10


t = int(input())
answers = []
for i in range(1, t + 1):
    x = int(input())
    answers.append(str(solve(x)))
print(" ".join(answers))
