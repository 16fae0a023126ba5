def solve(s):
    if len(s) > 10:
        return s[0] + str(len(s) - 2) + s[-1]
    return s


s = input()
print(solve(s))
