def solve(n):
    fives, rest = divmod(n, 5)
    return fives + rest // 2 + rest % 2


t = int(input())
answers = []
for i in range(1, 1 + 1):
    n = int(input())
    answers.append(str(solve(n)))
print(" ".join(answers))
