def solve(s):
    return max(len(w) for w in s.split())


s = input()
print(solve(s))
