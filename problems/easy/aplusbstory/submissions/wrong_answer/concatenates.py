# Adds the numbers as text: 3 and 4 give 34.
def solve(a, b):
    return str(a) + str(b)


a, b = map(int, input().split())
print(solve(a, b))
