# Rounds the wrong way: the letter before the middle.
def solve(s):
    return s[max(len(s) // 2 - 1, 0)]


s = input()
print(solve(s))
