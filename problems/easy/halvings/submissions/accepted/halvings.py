def solve(n):
    steps = 0
    while n > 1:
        n //= 2
        steps += 1
    return steps


n = int(input())
print(solve(n))
