# Bakes the pieces from apples and the loose pieces separately: an odd piece
# of each is wasted.
def solve(a, p):
    return 3 * a // 2 + p // 2


t = int(input())
for i in range(1, t + 1):
    a, p = map(int, input().split())
    print(solve(a, p))
