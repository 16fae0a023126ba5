def solve(h, m):
    return 60 * h + m


t = int(input())
for i in range(1, t + 1):
    h, m = map(int, input().split())
    print(solve(h, m))
