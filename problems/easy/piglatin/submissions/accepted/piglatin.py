def solve(s):
    if s[0] in "aeiou":
        return s + "way"
    for i, c in enumerate(s):
        if c in "aeiou":
            return s[i:] + s[:i] + "ay"
    return s + "ay"


s = input()
print(solve(s))
