def solve(s):
    return sum(1 for i in range(len(s) - 1) if s[i] == s[i + 1])


t = int(input())
for i in range(1, 1 + 1):
    s = input()
    print(solve(s))
