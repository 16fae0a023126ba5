# Keeps the letters in lower case.
def solve(s):
    return "".join(w[0] for w in s.split())


t = int(input())
for i in range(1, t + 1):
    s = input()
    print(f"Case #{i}: {solve(s)}")
