def solve(a, b):
    return f"{a // b} {a % b}"


t = int(input())
for i in range(1, 1 + 1):
    a, b = map(int, input().split())
    print(solve(a, b))
