# Subtracts the other way round: a_1 - a_n.
def solve(a):
    return a[0] - a[-1]


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
