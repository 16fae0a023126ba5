def solve(a):
    m = len(a) // 2
    return " ".join(f"{a[i]} {a[m + i]}" for i in range(m))


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
