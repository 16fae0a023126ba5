def solve(c, k):
    return 2 * c + 4 * k


t = int(input())
for i in range(1, t + 1):
    c, k = map(int, input().split())
    print(solve(c, k))
