def solve(s):
    u, v = s.split(" ")
    return "YES" if sorted(u) == sorted(v) else "NO"


t = int(input())
answers = []
for i in range(1, t + 1):
    s = input()
    answers.append(str(solve(s)))
print(" ".join(answers))
