n = int(input())
print(n * (n + 1) * (2 * n + 1) // 6)
