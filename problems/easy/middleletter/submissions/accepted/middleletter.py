def solve(s):
    return s[len(s) // 2]


s = input()
print(solve(s))
