# Starts the minimum at 0: wrong when every value is positive.
n = int(input())
best = 0
for x in map(int, input().split()):
    if x < best:
        best = x
print(best)
