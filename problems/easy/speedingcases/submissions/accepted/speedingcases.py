def solve(l, s):
    over = s - l
    if over <= 0:
        return 0
    if over <= 20:
        return 100
    if over <= 40:
        return 300
    return 800


t = int(input())
for i in range(1, t + 1):
    l, s = map(int, input().split())
    print(solve(l, s))
