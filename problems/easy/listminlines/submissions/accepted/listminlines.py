def solve(a):
    return min(a)


n = int(input())
a = [int(input()) for _ in range(n)]
print(solve(a))
