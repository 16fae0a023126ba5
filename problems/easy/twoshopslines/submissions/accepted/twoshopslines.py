def solve(a, b, f, q):
    cost_a = a * q
    cost_b = b * q + f
    if cost_a < cost_b:
        return "A"
    if cost_b < cost_a:
        return "B"
    return "same"


a = int(input())
b = int(input())
f = int(input())
q = int(input())
print(solve(a, b, f, q))
