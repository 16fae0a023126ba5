def solve(s):
    return "-".join(s)


s = input()
print(solve(s))
