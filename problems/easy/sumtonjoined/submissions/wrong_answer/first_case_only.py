def solve(n):
    return n * (n + 1) // 2


t = int(input())
answers = []
for i in range(1, 1 + 1):
    n = int(input())
    answers.append(str(solve(n)))
print(" ".join(answers))
