def solve(s):
    return "".join(chr(ord("a") + (ord(c) - ord("a") + 1) % 26) for c in s)


t = int(input())
for i in range(1, 1 + 1):
    s = input()
    print(solve(s))
