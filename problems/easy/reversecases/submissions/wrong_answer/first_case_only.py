def solve(s):
    return s[::-1]


t = int(input())
for i in range(1, 1 + 1):
    s = input()
    print(solve(s))
