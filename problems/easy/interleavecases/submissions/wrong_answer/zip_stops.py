# Merges with zip, which stops at the end of the shorter word: the rest of the longer one is lost.
def solve(s):
    u, v = s.split(" ")
    return "".join(a + b for a, b in zip(u, v))


t = int(input())
for i in range(1, t + 1):
    s = input()
    print(solve(s))
