def solve(a):
    n = len(a)
    return (n + 1) * (n + 2) // 2 - sum(a)


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
