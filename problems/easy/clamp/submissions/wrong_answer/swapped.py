# Swaps the ends: a value below the range becomes r.
def solve(x, l, r):
    if x < l:
        return r
    if x > r:
        return l
    return x


x, l, r = map(int, input().split())
print(solve(x, l, r))
