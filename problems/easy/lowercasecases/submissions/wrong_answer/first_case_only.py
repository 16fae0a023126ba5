def solve(s):
    return s.lower()


t = int(input())
for i in range(1, 1 + 1):
    s = input()
    print(solve(s))
