def solve(a):
    return max(a)


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
