def solve(x, l, r):
    return max(l, min(x, r))


t = int(input())
answers = []
for i in range(1, 1 + 1):
    x, l, r = map(int, input().split())
    answers.append(str(solve(x, l, r)))
print(" ".join(answers))
