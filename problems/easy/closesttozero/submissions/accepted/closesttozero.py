def solve(a):
    return min(a, key=lambda x: (abs(x), -x))


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
