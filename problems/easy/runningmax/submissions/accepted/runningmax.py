def solve(a):
    best, out = a[0], []
    for x in a:
        best = max(best, x)
        out.append(best)
    return " ".join(map(str, out))


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
