# Forgets the vowel u.
def solve(s):
    return sum(1 for c in s if c in "aeio")


t = int(input())
answers = []
for i in range(1, t + 1):
    s = input()
    answers.append(str(solve(s)))
print(" ".join(answers))
