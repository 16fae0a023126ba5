# Capitalizes only the first letter of every word.
def solve(s):
    return s.title()


t = int(input())
for i in range(1, t + 1):
    s = input()
    print(f"Case #{i}: {solve(s)}")
