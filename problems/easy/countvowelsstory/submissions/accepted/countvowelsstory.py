def solve(s):
    return sum(1 for c in s if c in "aeiou")


s = input()
print(solve(s))
