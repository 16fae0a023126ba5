# Reverses the whole line: the words come out in reverse order too.
def solve(s):
    return s[::-1]


s = input()
print(solve(s))
