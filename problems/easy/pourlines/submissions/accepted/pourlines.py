def solve(a, b, c):
    return max(0, c - (a - b))


a = int(input())
b = int(input())
c = int(input())
print(solve(a, b, c))
