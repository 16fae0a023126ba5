def solve(a, b, c):
    return a + b + c


t = int(input())
answers = []
for i in range(1, 1 + 1):
    a, b, c = map(int, input().split())
    answers.append(str(solve(a, b, c)))
print(" ".join(answers))
