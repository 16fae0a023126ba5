# Rotates the other way: the last value comes to the front.
def solve(a):
    return " ".join(map(str, a[-1:] + a[:-1]))


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
