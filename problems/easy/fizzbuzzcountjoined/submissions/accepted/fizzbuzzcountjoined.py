def solve(n):
    return n // 3 + n // 5 - n // 15


t = int(input())
answers = []
for i in range(1, t + 1):
    n = int(input())
    answers.append(str(solve(n)))
print(" ".join(answers))
