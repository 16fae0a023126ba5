def solve(s, p, g):
    years = 0
    while s < g:
        s += s * p // 100
        years += 1
    return years


t = int(input())
for i in range(1, t + 1):
    s, p, g = map(int, input().split())
    print(solve(s, p, g))
