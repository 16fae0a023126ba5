# Adds ay to a word that begins with a vowel too, instead of way.
def solve(s):
    for i, c in enumerate(s):
        if c in "aeiou":
            return s[i:] + s[:i] + "ay"
    return s + "ay"


t = int(input())
for i in range(1, t + 1):
    s = input()
    print(f"Case #{i}: {solve(s)}")
