# Splits the year in quarters from January: March is winter and December autumn.
def solve(m):
    return ["winter", "spring", "summer", "autumn"][(m - 1) // 3]


t = int(input())
for i in range(1, t + 1):
    m = int(input())
    print(solve(m))
