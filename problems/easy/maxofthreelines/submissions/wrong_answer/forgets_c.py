# Compares a and b only.
def solve(a, b, c):
    return max(a, b)


a = int(input())
b = int(input())
c = int(input())
print(solve(a, b, c))
