def solve(n):
    a, b = 1, 1
    for _ in range(n - 1):
        a, b = b, a + b
    return a


t = int(input())
answers = []
for i in range(1, 1 + 1):
    n = int(input())
    answers.append(str(solve(n)))
print(" ".join(answers))
