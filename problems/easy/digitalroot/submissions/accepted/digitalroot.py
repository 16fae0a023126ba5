def solve(n):
    while n >= 10:
        n = sum(int(d) for d in str(n))
    return n


n = int(input())
print(solve(n))
