def solve(a):
    total = sum(a)
    return " ".join(str(total - x) for x in a)


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
