def solve(y):
    return "YES" if y % 4 == 0 and (y % 100 != 0 or y % 400 == 0) else "NO"


y = int(input())
print(solve(y))
