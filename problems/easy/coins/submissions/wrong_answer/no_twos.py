# Forgets the 2-cent coin: pays the rest after the fives in 1-cent coins.
def solve(n):
    return n // 5 + n % 5


n = int(input())
print(solve(n))
