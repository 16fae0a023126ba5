# Forgets the rests: compares the speeds only, as if both ran all the time.
def solve(a, b, c, d, r, x):
    if b > d:
        return "first"
    if d > b:
        return "second"
    return "draw"


a, b, c, d, r, x = map(int, input().split())
print(solve(a, b, c, d, r, x))
