def solve(h, m):
    return 60 * h + m


h, m = map(int, input().split())
print(solve(h, m))
