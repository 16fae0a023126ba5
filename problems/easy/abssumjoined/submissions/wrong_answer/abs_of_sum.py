# Takes the absolute value of the sum instead of adding up the absolute values.
def solve(a):
    return abs(sum(a))


t = int(input())
answers = []
for i in range(1, t + 1):
    n = int(input())
    a = list(map(int, input().split()))
    answers.append(str(solve(a)))
print(" ".join(answers))
