# Takes an hour for 100 minutes.
def solve(h, m):
    return 100 * h + m


t = int(input())
for i in range(1, t + 1):
    h, m = map(int, input().split())
    print(solve(h, m))
