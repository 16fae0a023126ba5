# Compares the words as they are: Apple and apple come out different.
def solve(s):
    u, v = s.split(" ")
    return "YES" if u == v else "NO"


s = input()
print(solve(s))
