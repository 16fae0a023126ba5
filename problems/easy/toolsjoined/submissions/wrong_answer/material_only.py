# Counts only the material, three pieces a tool, and forgets that each tool
# needs at least one stick and one diamond.
def solve(a, b):
    return (a + b) // 3


t = int(input())
answers = []
for i in range(1, t + 1):
    a, b = map(int, input().split())
    answers.append(str(solve(a, b)))
print(" ".join(answers))
