# Compares the first and the last letter only.
def solve(s):
    return "YES" if s[0] == s[-1] else "NO"


t = int(input())
answers = []
for i in range(1, t + 1):
    s = input()
    answers.append(str(solve(s)))
print(" ".join(answers))
