# Takes every even number for a power of two, and forgets 1.
def solve(n):
    return "YES" if n % 2 == 0 else "NO"


n = int(input())
print(solve(n))
