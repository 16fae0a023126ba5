def solve(n):
    return "even" if n % 2 == 0 else "odd"


t = int(input())
answers = []
for i in range(1, t + 1):
    n = int(input())
    answers.append(str(solve(n)))
print(" ".join(answers))
