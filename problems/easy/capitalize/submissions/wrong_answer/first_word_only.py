# Capitalizes the first word only.
def solve(s):
    return s[0].upper() + s[1:]


s = input()
print(solve(s))
