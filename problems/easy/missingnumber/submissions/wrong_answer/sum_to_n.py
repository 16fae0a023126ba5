# Takes the full sum to be 1 + ... + n, forgetting that the integers go up to n + 1.
def solve(a):
    n = len(a)
    return n * (n + 1) // 2 - sum(a)


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
