def solve(n):
    digits = 1
    while n >= 10:
        n //= 10
        digits += 1
    return digits


t = int(input())
answers = []
for i in range(1, t + 1):
    n = int(input())
    answers.append(str(solve(n)))
print(" ".join(answers))
