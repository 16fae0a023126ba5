def solve(s):
    u, v = s.split(" ")
    k = 0
    while k < len(u) and k < len(v) and u[k] == v[k]:
        k += 1
    return k


s = input()
print(solve(s))
