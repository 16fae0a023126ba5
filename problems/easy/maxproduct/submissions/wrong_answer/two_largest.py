# Multiplies the two largest values, forgetting that two negative values can give more.
def solve(a):
    b = sorted(a)
    return b[-1] * b[-2]


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
