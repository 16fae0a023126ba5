# Melts the stubs only once: the stubs of the new candles are thrown away.
def solve(a, b):
    return a + a // b


a, b = map(int, input().split())
print(solve(a, b))
