def solve(a, b):
    return a * a + b * b


a = int(input())
b = int(input())
print(solve(a, b))
