# Forgets equal numbers.
def solve(a, b):
    return "<" if a < b else ">"


a = int(input())
b = int(input())
print(solve(a, b))
