def solve(a):
    return " ".join(str(a[i] + a[i + 1]) for i in range(len(a) - 1))


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
