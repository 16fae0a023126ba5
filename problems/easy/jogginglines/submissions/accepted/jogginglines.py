def distance(run, speed, rest, x):
    total = 0
    for second in range(x):
        if second % (run + rest) < run:
            total += speed
    return total


def solve(a, b, c, d, r, x):
    first = distance(a, b, r, x)
    second = distance(c, d, r, x)
    if first > second:
        return "first"
    if second > first:
        return "second"
    return "draw"


a = int(input())
b = int(input())
c = int(input())
d = int(input())
r = int(input())
x = int(input())
print(solve(a, b, c, d, r, x))
