def solve(h, u, d):
    height = 0
    day = 0
    while True:
        day += 1
        height += u
        if height >= h:
            return day
        height -= d


h, u, d = map(int, input().split())
print(solve(h, u, d))
