def solve(a):
    return sum(1 for x in a if x % 2 == 0)


n = int(input())
a = [int(input()) for _ in range(n)]
print(solve(a))
