# Makes as many moves of the first kind as it can before any of the second.
def solve(a, b, c):
    first = min(a, b // 2)
    second = min(b - 2 * first, c // 2)
    return 3 * (first + second)


a, b, c = map(int, input().split())
print(solve(a, b, c))
