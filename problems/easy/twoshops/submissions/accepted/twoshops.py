def solve(a, b, f, q):
    cost_a = a * q
    cost_b = b * q + f
    if cost_a < cost_b:
        return "A"
    if cost_b < cost_a:
        return "B"
    return "same"


a, b, f, q = map(int, input().split())
print(solve(a, b, f, q))
