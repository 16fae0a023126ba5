# Forgets the absolute value: only rises count.
def solve(a):
    return max(a[i + 1] - a[i] for i in range(len(a) - 1))


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
