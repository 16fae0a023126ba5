# Sorts and takes the second to last value: wrong when the maximum repeats.
def solve(a):
    return sorted(a)[-2]


n, *a = map(int, input().split())
print(solve(a))
