# Counts the multiples of 15 twice.
n = int(input())
print(n // 3 + n // 5)
