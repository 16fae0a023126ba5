def solve(a):
    return a.count(max(a))


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
