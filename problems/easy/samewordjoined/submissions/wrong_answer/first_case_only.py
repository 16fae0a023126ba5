def solve(s):
    u, v = s.split(" ")
    return "YES" if u.lower() == v.lower() else "NO"


t = int(input())
answers = []
for i in range(1, 1 + 1):
    s = input()
    answers.append(str(solve(s)))
print(" ".join(answers))
