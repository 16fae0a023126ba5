def solve(w, h):
    return f"{2 * (w + h)} {w * h}"


t = int(input())
for i in range(1, 1 + 1):
    w, h = map(int, input().split())
    print(f"Case #{i}: {solve(w, h)}")
