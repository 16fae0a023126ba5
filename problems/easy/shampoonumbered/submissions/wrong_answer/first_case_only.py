def solve(v, a, b, c):
    left = v % (a + b + c)
    if left < a:
        return "father"
    if left < a + b:
        return "mother"
    return "child"


t = int(input())
for i in range(1, 1 + 1):
    v, a, b, c = map(int, input().split())
    print(f"Case #{i}: {solve(v, a, b, c)}")
