def solve(s):
    return " ".join(w[::-1] for w in s.split(" "))


t = int(input())
for i in range(1, 1 + 1):
    s = input()
    print(solve(s))
