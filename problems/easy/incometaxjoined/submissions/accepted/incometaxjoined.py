def solve(x):
    if x <= 10000:
        return 0
    if x <= 50000:
        return (x - 10000) // 10
    return 4000 + (x - 50000) // 5


t = int(input())
answers = []
for i in range(1, t + 1):
    x = int(input())
    answers.append(str(solve(x)))
print(" ".join(answers))
