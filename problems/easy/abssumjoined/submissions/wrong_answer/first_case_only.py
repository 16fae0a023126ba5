def solve(a):
    return sum(abs(x) for x in a)


t = int(input())
answers = []
for i in range(1, 1 + 1):
    n = int(input())
    a = list(map(int, input().split()))
    answers.append(str(solve(a)))
print(" ".join(answers))
