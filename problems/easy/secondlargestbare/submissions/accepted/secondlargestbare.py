def solve(a):
    top = max(a)
    return max(x for x in a if x < top)


a = list(map(int, input().split()))
print(solve(a))
