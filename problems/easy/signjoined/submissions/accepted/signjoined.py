def solve(n):
    return "positive" if n > 0 else "negative" if n < 0 else "zero"


t = int(input())
answers = []
for i in range(1, t + 1):
    n = int(input())
    answers.append(str(solve(n)))
print(" ".join(answers))
