def solve(n):
    result = 1
    for i in range(2, n + 1):
        result *= i
    return result


t = int(input())
for i in range(1, t + 1):
    n = int(input())
    print(solve(n))
