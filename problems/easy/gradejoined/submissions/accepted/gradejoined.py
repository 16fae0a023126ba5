def solve(s):
    if s >= 90:
        return "A"
    if s >= 80:
        return "B"
    if s >= 70:
        return "C"
    if s >= 60:
        return "D"
    return "F"


t = int(input())
answers = []
for i in range(1, t + 1):
    s = int(input())
    answers.append(str(solve(s)))
print(" ".join(answers))
