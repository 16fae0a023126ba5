def solve(a):
    m = len(a) // 2
    return " ".join(f"{a[i]} {a[m + i]}" for i in range(m))


t = int(input())
for i in range(1, t + 1):
    n = int(input())
    a = list(map(int, input().split()))
    print(solve(a))
