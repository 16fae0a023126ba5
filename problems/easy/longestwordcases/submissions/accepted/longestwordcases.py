def solve(s):
    return max(len(w) for w in s.split())


t = int(input())
for i in range(1, t + 1):
    s = input()
    print(solve(s))
