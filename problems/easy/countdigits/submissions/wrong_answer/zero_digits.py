# Counts while n > 0: 0 gets no digits.
def solve(n):
    digits = 0
    while n > 0:
        n //= 10
        digits += 1
    return digits


n = int(input())
print(solve(n))
