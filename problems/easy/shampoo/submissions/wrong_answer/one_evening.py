# Looks at the first evening only: the bottle never lasts into a second one.
def solve(v, a, b, c):
    if v < a:
        return "father"
    if v < a + b:
        return "mother"
    return "child"


v, a, b, c = map(int, input().split())
print(solve(v, a, b, c))
