# Compares a and b only.
def solve(a, b, c):
    return max(a, b)


t = int(input())
for i in range(1, t + 1):
    a, b, c = map(int, input().split())
    print(solve(a, b, c))
