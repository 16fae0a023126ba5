# Starts the sequence at 0, 1: gives F_(n-1) instead of F_n.
def solve(n):
    a, b = 0, 1
    for _ in range(n - 1):
        a, b = b, a + b
    return a


t = int(input())
answers = []
for i in range(1, t + 1):
    n = int(input())
    answers.append(str(solve(n)))
print(" ".join(answers))
