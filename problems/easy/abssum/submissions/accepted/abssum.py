def solve(a):
    return sum(abs(x) for x in a)


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
