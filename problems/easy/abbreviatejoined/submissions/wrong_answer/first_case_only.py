def solve(s):
    if len(s) > 10:
        return s[0] + str(len(s) - 2) + s[-1]
    return s


t = int(input())
answers = []
for i in range(1, 1 + 1):
    s = input()
    answers.append(str(solve(s)))
print(" ".join(answers))
