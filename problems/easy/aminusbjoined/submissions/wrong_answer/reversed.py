# Subtracts the wrong way round: b - a.
def solve(a, b):
    return b - a


t = int(input())
answers = []
for i in range(1, t + 1):
    a, b = map(int, input().split())
    answers.append(str(solve(a, b)))
print(" ".join(answers))
