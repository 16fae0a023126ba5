def solve(a):
    b = a[:]
    for i in range(0, len(b) - 1, 2):
        b[i], b[i + 1] = b[i + 1], b[i]
    return " ".join(map(str, b))


n = int(input())
a = [int(input()) for _ in range(n)]
print(solve(a))
