def solve(a):
    return a.count(a[0])


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
