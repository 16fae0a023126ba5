def solve(n):
    while n >= 10:
        n = sum(int(d) for d in str(n))
    return n


t = int(input())
answers = []
for i in range(1, 1 + 1):
    n = int(input())
    answers.append(str(solve(n)))
print(" ".join(answers))
