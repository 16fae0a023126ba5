# Gives the chickens four legs and the cows two.
def solve(c, k):
    return 4 * c + 2 * k


c, k = map(int, input().split())
print(solve(c, k))
