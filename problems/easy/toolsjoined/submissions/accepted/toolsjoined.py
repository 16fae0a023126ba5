def solve(a, b):
    return min(a, b, (a + b) // 3)


t = int(input())
answers = []
for i in range(1, t + 1):
    a, b = map(int, input().split())
    answers.append(str(solve(a, b)))
print(" ".join(answers))
