def solve(m):
    if m in (12, 1, 2):
        return "winter"
    if m <= 5:
        return "spring"
    if m <= 8:
        return "summer"
    return "autumn"


t = int(input())
for i in range(1, t + 1):
    m = int(input())
    print(solve(m))
