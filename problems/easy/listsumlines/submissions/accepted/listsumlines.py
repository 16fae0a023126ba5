def solve(a):
    return sum(a)


n = int(input())
a = [int(input()) for _ in range(n)]
print(solve(a))
