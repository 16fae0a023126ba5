def solve(c):
    return c * 9 // 5 + 32


c = int(input())
print(solve(c))
