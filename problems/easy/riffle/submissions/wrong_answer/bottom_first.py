# Starts with the bottom half: a_{m+1}, a_1, a_{m+2}, a_2, ...
def solve(a):
    m = len(a) // 2
    return " ".join(f"{a[m + i]} {a[i]}" for i in range(m))


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
