# Takes every year divisible by 4 for a leap year.
def solve(y, m):
    if m == 2:
        return 29 if y % 4 == 0 else 28
    return 30 if m in (4, 6, 9, 11) else 31


y, m = map(int, input().split())
print(solve(y, m))
