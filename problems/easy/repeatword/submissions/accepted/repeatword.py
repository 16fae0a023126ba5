def solve(s):
    w, k = s.split(" ")
    return w * int(k)


s = input()
print(solve(s))
