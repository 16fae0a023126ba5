# Doubles the whole word instead of each letter: abc becomes abcabc.
def solve(s):
    return s * 2


t = int(input())
for i in range(1, t + 1):
    s = input()
    print(f"Case #{i}: {solve(s)}")
