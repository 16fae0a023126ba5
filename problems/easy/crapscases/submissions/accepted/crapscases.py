def solve(a, b):
    total = a + b
    if total in (7, 11):
        return "win"
    if total in (2, 3, 12):
        return "lose"
    return "point"


t = int(input())
for i in range(1, t + 1):
    a, b = map(int, input().split())
    print(solve(a, b))
