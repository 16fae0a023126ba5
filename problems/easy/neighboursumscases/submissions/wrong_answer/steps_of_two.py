# Steps by two: adds a_1 + a_2, then a_3 + a_4, so the pairs never overlap.
def solve(a):
    return " ".join(str(a[i] + a[i + 1]) for i in range(0, len(a) - 1, 2))


t = int(input())
for i in range(1, t + 1):
    n = int(input())
    a = list(map(int, input().split()))
    print(solve(a))
