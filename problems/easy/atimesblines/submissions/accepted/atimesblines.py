def solve(a, b):
    return a * b


a = int(input())
b = int(input())
print(solve(a, b))
