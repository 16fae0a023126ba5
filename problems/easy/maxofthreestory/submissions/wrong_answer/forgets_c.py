# Compares a and b only.
def solve(a, b, c):
    return max(a, b)


a, b, c = map(int, input().split())
print(solve(a, b, c))
