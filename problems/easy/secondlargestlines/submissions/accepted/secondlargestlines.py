def solve(a):
    top = max(a)
    return max(x for x in a if x < top)


n = int(input())
a = [int(input()) for _ in range(n)]
print(solve(a))
