def solve(s):
    return "".join(chr(ord("a") + (ord(c) - ord("a") + 1) % 26) for c in s)


s = input()
print(solve(s))
