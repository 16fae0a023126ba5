def solve(a, u, b, v):
    if a == b:
        return "YES"
    if u == v:
        return "NO"
    gap = b - a
    closing = u - v
    if gap % closing == 0 and gap // closing > 0:
        return "YES"
    return "NO"


t = int(input())
answers = []
for i in range(1, t + 1):
    a, u, b, v = map(int, input().split())
    answers.append(str(solve(a, u, b, v)))
print(" ".join(answers))
