def solve(a, b):
    return f"{a // b} {a % b}"


a = int(input())
b = int(input())
print(solve(a, b))
