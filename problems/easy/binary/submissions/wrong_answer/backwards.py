# Writes the bits lowest first.
def solve(n):
    return bin(n)[2:][::-1]


n = int(input())
print(solve(n))
