def solve(a):
    return sum(a)


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
