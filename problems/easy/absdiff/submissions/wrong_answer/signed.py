# Forgets the absolute value: a below b gives a negative distance.
def solve(a, b):
    return a - b


a, b = map(int, input().split())
print(solve(a, b))
