def solve(a):
    return " ".join(map(str, reversed(a)))


t = int(input())
for i in range(1, 1 + 1):
    n = int(input())
    a = list(map(int, input().split()))
    print(f"Case #{i}: {solve(a)}")
