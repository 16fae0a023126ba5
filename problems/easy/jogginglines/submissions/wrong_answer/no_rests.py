# Forgets the rests: compares the speeds only, as if both ran all the time.
def solve(a, b, c, d, r, x):
    if b > d:
        return "first"
    if d > b:
        return "second"
    return "draw"


a = int(input())
b = int(input())
c = int(input())
d = int(input())
r = int(input())
x = int(input())
print(solve(a, b, c, d, r, x))
