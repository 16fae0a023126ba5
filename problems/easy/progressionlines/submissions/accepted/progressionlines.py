def solve(a, d, n):
    return n * a + d * (n * (n - 1) // 2)


a = int(input())
d = int(input())
n = int(input())
print(solve(a, d, n))
