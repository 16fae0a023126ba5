def solve(n):
    result = 0
    while n > 0:
        result = result * 10 + n % 10
        n //= 10
    return result


n = int(input())
print(solve(n))
