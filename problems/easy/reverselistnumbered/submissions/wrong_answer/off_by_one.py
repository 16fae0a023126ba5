# Stops one early: the first value is never printed.
def solve(a):
    return " ".join(str(a[i]) for i in range(len(a) - 1, 0, -1))


t = int(input())
for i in range(1, t + 1):
    n = int(input())
    a = list(map(int, input().split()))
    print(f"Case #{i}: {solve(a)}")
