def solve(s):
    if s[0] in "aeiou":
        return s + "way"
    for i, c in enumerate(s):
        if c in "aeiou":
            return s[i:] + s[:i] + "ay"
    return s + "ay"


t = int(input())
for i in range(1, t + 1):
    s = input()
    print(f"Case #{i}: {solve(s)}")
