# Takes the highest price minus the lowest, as if one could sell before buying.
def solve(a):
    return max(a) - min(a)


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
