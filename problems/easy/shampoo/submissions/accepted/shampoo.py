def solve(v, a, b, c):
    left = v % (a + b + c)
    if left < a:
        return "father"
    if left < a + b:
        return "mother"
    return "child"


v, a, b, c = map(int, input().split())
print(solve(v, a, b, c))
