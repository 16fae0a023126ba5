def solve(a, b, c):
    return sorted([a, b, c])[1]


t = int(input())
answers = []
for i in range(1, t + 1):
    a, b, c = map(int, input().split())
    answers.append(str(solve(a, b, c)))
print(" ".join(answers))
