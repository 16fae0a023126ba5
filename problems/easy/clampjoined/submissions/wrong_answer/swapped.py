# Swaps the ends: a value below the range becomes r.
def solve(x, l, r):
    if x < l:
        return r
    if x > r:
        return l
    return x


t = int(input())
answers = []
for i in range(1, t + 1):
    x, l, r = map(int, input().split())
    answers.append(str(solve(x, l, r)))
print(" ".join(answers))
