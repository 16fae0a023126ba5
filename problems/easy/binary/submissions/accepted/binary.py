def solve(n):
    return bin(n)[2:]


n = int(input())
print(solve(n))
