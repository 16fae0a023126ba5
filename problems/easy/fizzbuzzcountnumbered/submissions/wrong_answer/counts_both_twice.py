# Counts the multiples of 15 twice.
def solve(n):
    return n // 3 + n // 5


t = int(input())
for i in range(1, t + 1):
    n = int(input())
    print(f"Case #{i}: {solve(n)}")
