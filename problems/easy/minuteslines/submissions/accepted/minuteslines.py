def solve(h, m):
    return 60 * h + m


h = int(input())
m = int(input())
print(solve(h, m))
