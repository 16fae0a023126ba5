# Halves until the number is 0: one step too many.
def solve(n):
    steps = 0
    while n > 0:
        n //= 2
        steps += 1
    return steps


n = int(input())
print(solve(n))
