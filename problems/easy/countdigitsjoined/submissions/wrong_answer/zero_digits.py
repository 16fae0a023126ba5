# Counts while n > 0: 0 gets no digits.
def solve(n):
    digits = 0
    while n > 0:
        n //= 10
        digits += 1
    return digits


t = int(input())
answers = []
for i in range(1, t + 1):
    n = int(input())
    answers.append(str(solve(n)))
print(" ".join(answers))
