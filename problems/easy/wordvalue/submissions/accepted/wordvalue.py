def solve(s):
    return sum(ord(c) - ord("a") + 1 for c in s)


s = input()
print(solve(s))
