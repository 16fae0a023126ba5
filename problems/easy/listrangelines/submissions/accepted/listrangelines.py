def solve(a):
    return max(a) - min(a)


n = int(input())
a = [int(input()) for _ in range(n)]
print(solve(a))
