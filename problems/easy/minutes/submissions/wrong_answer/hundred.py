# Takes an hour for 100 minutes.
def solve(h, m):
    return 100 * h + m


h, m = map(int, input().split())
print(solve(h, m))
