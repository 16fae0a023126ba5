# Counts 0 as a multiple too.
def solve(n, k):
    return n // k + 1


n, k = map(int, input().split())
print(solve(n, k))
