# Takes the highest price minus the lowest, as if one could sell before buying.
def solve(a):
    return max(a) - min(a)


t = int(input())
for i in range(1, t + 1):
    n = int(input())
    a = list(map(int, input().split()))
    print(f"Case #{i}: {solve(a)}")
