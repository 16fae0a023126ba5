def solve(a):
    total = sum(a)
    return " ".join(str(total - x) for x in a)


a = list(map(int, input().split()))
print(solve(a))
