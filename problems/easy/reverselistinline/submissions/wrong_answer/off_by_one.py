# Stops one early: the first value is never printed.
def solve(a):
    return " ".join(str(a[i]) for i in range(len(a) - 1, 0, -1))


n, *a = map(int, input().split())
print(solve(a))
