def solve(a):
    return sum(1 for x in a if x > 0)


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
