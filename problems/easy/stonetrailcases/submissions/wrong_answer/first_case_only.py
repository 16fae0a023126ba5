def solve(n, a, b):
    marks = sorted(set((n - 1 - i) * a + i * b for i in range(n)))
    return " ".join(str(m) for m in marks)


t = int(input())
for i in range(1, 1 + 1):
    n, a, b = map(int, input().split())
    print(solve(n, a, b))
