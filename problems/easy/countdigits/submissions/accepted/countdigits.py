def solve(n):
    digits = 1
    while n >= 10:
        n //= 10
        digits += 1
    return digits


n = int(input())
print(solve(n))
