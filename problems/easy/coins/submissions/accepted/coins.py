def solve(n):
    fives, rest = divmod(n, 5)
    return fives + rest // 2 + rest % 2


n = int(input())
print(solve(n))
