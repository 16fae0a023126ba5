def solve(s):
    u, v = s.split(" ")
    out = []
    for i in range(max(len(u), len(v))):
        out.append(u[i:i + 1] + v[i:i + 1])
    return "".join(out)


t = int(input())
for i in range(1, 1 + 1):
    s = input()
    print(solve(s))
