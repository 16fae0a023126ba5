# Adds the digits once: 99 gives 18, not 9.
def solve(n):
    return sum(int(d) for d in str(n))


t = int(input())
answers = []
for i in range(1, t + 1):
    n = int(input())
    answers.append(str(solve(n)))
print(" ".join(answers))
