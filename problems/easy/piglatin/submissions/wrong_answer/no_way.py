# Adds ay to a word that begins with a vowel too, instead of way.
def solve(s):
    for i, c in enumerate(s):
        if c in "aeiou":
            return s[i:] + s[:i] + "ay"
    return s + "ay"


s = input()
print(solve(s))
