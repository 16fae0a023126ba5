# Keeps the letters in lower case.
def solve(s):
    return "".join(w[0] for w in s.split())


t = int(input())
answers = []
for i in range(1, t + 1):
    s = input()
    answers.append(str(solve(s)))
print(" ".join(answers))
