# Keeps the first of two equally close values, which is the negative one when it comes first.
def solve(a):
    best = a[0]
    for x in a:
        if abs(x) < abs(best):
            best = x
    return best


a = list(map(int, input().split()))
print(solve(a))
