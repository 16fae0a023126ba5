# Gives the chickens four legs and the cows two.
def solve(c, k):
    return 4 * c + 2 * k


t = int(input())
for i in range(1, t + 1):
    c, k = map(int, input().split())
    print(solve(c, k))
