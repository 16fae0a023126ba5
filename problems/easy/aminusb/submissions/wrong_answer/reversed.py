# Subtracts the wrong way round: b - a.
a, b = map(int, input().split())
print(b - a)
