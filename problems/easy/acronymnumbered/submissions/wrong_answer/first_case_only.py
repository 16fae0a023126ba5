def solve(s):
    return "".join(w[0].upper() for w in s.split())


t = int(input())
for i in range(1, 1 + 1):
    s = input()
    print(f"Case #{i}: {solve(s)}")
