def solve(s):
    return s.swapcase()


t = int(input())
answers = []
for i in range(1, 1 + 1):
    s = input()
    answers.append(str(solve(s)))
print(" ".join(answers))
