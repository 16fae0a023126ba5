def solve(a):
    b = [x for x in a if x != 0]
    return " ".join(map(str, b + [0] * (len(a) - len(b))))


n, *a = map(int, input().split())
print(solve(a))
