def solve(w, h):
    return f"{2 * (w + h)} {w * h}"


w = int(input())
h = int(input())
print(solve(w, h))
