def solve(n, k):
    winner = 0
    for size in range(2, n + 1):
        winner = (winner + k) % size
    return winner + 1


n, k = map(int, input().split())
print(solve(n, k))
