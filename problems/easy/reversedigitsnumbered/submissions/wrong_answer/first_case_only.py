def solve(n):
    result = 0
    while n > 0:
        result = result * 10 + n % 10
        n //= 10
    return result


t = int(input())
for i in range(1, 1 + 1):
    n = int(input())
    print(f"Case #{i}: {solve(n)}")
