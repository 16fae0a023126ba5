def solve(a):
    top = max(a)
    return max(x for x in a if x < top)


t = int(input())
for i in range(1, 1 + 1):
    n = int(input())
    a = list(map(int, input().split()))
    print(solve(a))
