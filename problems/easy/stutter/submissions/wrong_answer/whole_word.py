# Doubles the whole word instead of each letter: abc becomes abcabc.
def solve(s):
    return s * 2


s = input()
print(solve(s))
