# Adds the digits once: 99 gives 18, not 9.
def solve(n):
    return sum(int(d) for d in str(n))


n = int(input())
print(solve(n))
