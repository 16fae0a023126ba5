# Splits the year in quarters from January: March is winter and December autumn.
def solve(m):
    return ["winter", "spring", "summer", "autumn"][(m - 1) // 3]


m = int(input())
print(solve(m))
