def solve(h, u, d):
    height = 0
    day = 0
    while True:
        day += 1
        height += u
        if height >= h:
            return day
        height -= d


h = int(input())
u = int(input())
d = int(input())
print(solve(h, u, d))
