def solve(a, b, c):
    return "YES" if a < b + c and b < a + c and c < a + b else "NO"


t = int(input())
answers = []
for i in range(1, t + 1):
    a, b, c = map(int, input().split())
    answers.append(str(solve(a, b, c)))
print(" ".join(answers))
