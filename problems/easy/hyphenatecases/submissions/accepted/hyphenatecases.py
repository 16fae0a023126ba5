def solve(s):
    return "-".join(s)


t = int(input())
for i in range(1, t + 1):
    s = input()
    print(solve(s))
