# Looks at the first evening only: the bottle never lasts into a second one.
def solve(v, a, b, c):
    if v < a:
        return "father"
    if v < a + b:
        return "mother"
    return "child"


t = int(input())
for i in range(1, t + 1):
    v, a, b, c = map(int, input().split())
    print(f"Case #{i}: {solve(v, a, b, c)}")
