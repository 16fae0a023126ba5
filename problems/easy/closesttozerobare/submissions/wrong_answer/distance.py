# Answers the distance to zero instead of the temperature itself: -3 comes out 3.
def solve(a):
    return min(abs(x) for x in a)


a = list(map(int, input().split()))
print(solve(a))
