def solve(n):
    return n ** 3


n = int(input())
print(solve(n))
