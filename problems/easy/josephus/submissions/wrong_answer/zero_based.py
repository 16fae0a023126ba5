# Finds the winner's place counting from 0 and prints it as is.
def solve(n, k):
    winner = 0
    for size in range(2, n + 1):
        winner = (winner + k) % size
    return winner


n, k = map(int, input().split())
print(solve(n, k))
