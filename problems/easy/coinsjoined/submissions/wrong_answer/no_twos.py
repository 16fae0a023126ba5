# Forgets the 2-cent coin: pays the rest after the fives in 1-cent coins.
def solve(n):
    return n // 5 + n % 5


t = int(input())
answers = []
for i in range(1, t + 1):
    n = int(input())
    answers.append(str(solve(n)))
print(" ".join(answers))
