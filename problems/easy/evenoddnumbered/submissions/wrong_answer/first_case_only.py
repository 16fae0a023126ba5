def solve(n):
    return "even" if n % 2 == 0 else "odd"


t = int(input())
for i in range(1, 1 + 1):
    n = int(input())
    print(f"Case #{i}: {solve(n)}")
