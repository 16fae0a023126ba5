def solve(n):
    return bin(n).count("1")


n = int(input())
print(solve(n))
