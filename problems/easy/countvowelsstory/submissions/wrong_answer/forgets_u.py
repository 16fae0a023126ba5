# Forgets the vowel u.
def solve(s):
    return sum(1 for c in s if c in "aeio")


s = input()
print(solve(s))
