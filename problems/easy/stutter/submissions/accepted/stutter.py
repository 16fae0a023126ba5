def solve(s):
    return "".join(c + c for c in s)


s = input()
print(solve(s))
