def solve(a, b, c):
    return a + b + c


a = int(input())
b = int(input())
c = int(input())
print(solve(a, b, c))
