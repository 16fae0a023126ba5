def solve(a):
    return sum(a[0::2]) - sum(a[1::2])


t = int(input())
for i in range(1, t + 1):
    n = int(input())
    a = list(map(int, input().split()))
    print(f"Case #{i}: {solve(a)}")
