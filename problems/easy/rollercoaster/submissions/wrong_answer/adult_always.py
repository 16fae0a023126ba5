# Lets any rider on with an adult, forgetting the 120 cm minimum.
def solve(h, c):
    return "YES" if h >= 140 or c == 1 else "NO"


h, c = map(int, input().split())
print(solve(h, c))
