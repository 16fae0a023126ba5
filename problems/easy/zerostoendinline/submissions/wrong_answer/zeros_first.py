# Moves the zeros to the front instead of the end.
def solve(a):
    b = [x for x in a if x != 0]
    return " ".join(map(str, [0] * (len(a) - len(b)) + b))


n, *a = map(int, input().split())
print(solve(a))
