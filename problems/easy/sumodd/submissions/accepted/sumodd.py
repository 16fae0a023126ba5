def solve(a):
    return sum(x for x in a if x % 2 != 0)


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
