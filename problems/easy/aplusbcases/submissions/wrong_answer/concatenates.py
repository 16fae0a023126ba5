# Adds the numbers as text: 3 and 4 give 34.
def solve(a, b):
    return str(a) + str(b)


t = int(input())
for i in range(1, t + 1):
    a, b = map(int, input().split())
    print(solve(a, b))
