def solve(a):
    return " ".join(map(str, reversed(a)))


n = int(input())
a = [int(input()) for _ in range(n)]
print(solve(a))
