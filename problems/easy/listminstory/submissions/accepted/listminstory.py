def solve(a):
    return min(a)


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
