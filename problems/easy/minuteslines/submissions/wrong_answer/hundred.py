# Takes an hour for 100 minutes.
def solve(h, m):
    return 100 * h + m


h = int(input())
m = int(input())
print(solve(h, m))
