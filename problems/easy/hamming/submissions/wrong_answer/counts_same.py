# Counts the positions where the letters agree instead of where they differ.
def solve(s):
    u, v = s.split(" ")
    return sum(1 for a, b in zip(u, v) if a == b)


s = input()
print(solve(s))
