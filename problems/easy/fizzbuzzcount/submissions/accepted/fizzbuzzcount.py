n = int(input())
print(n // 3 + n // 5 - n // 15)
