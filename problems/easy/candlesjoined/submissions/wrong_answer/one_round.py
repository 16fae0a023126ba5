# Melts the stubs only once: the stubs of the new candles are thrown away.
def solve(a, b):
    return a + a // b


t = int(input())
answers = []
for i in range(1, t + 1):
    a, b = map(int, input().split())
    answers.append(str(solve(a, b)))
print(" ".join(answers))
