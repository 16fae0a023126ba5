def solve(s):
    return "".join(w[0].upper() for w in s.split())


t = int(input())
answers = []
for i in range(1, 1 + 1):
    s = input()
    answers.append(str(solve(s)))
print(" ".join(answers))
