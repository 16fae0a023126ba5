def solve(a):
    b = a[:]
    for i in range(0, len(b) - 1, 2):
        b[i], b[i + 1] = b[i + 1], b[i]
    return " ".join(map(str, b))


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
