# Adds the numbers one by one: 10^9 steps.
n = int(input())
total = 0
for i in range(1, n + 1):
    total += i
print(total)
