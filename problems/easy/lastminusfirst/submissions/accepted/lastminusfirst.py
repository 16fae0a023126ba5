def solve(a):
    return a[-1] - a[0]


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
