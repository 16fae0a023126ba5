def solve(a):
    return sum(a[0::2]) - sum(a[1::2])


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
