# Taxes the whole income at the rate of its highest band.
def solve(x):
    if x <= 10000:
        return 0
    if x <= 50000:
        return x // 10
    return x // 5


x = int(input())
print(solve(x))
