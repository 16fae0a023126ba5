def solve(s):
    return s.lower()


s = input()
print(solve(s))
