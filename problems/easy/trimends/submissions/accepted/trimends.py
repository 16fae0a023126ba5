def solve(s):
    return s[1:-1]


s = input()
print(solve(s))
