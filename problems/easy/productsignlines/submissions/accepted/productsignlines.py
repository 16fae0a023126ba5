def solve(a, b):
    if a == 0 or b == 0:
        return "zero"
    return "positive" if (a > 0) == (b > 0) else "negative"


a = int(input())
b = int(input())
print(solve(a, b))
