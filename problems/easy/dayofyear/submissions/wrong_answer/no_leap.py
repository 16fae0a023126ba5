# Forgets leap years.
def solve(y, m, d):
    days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return sum(days[:m - 1]) + d


y, m, d = map(int, input().split())
print(solve(y, m, d))
