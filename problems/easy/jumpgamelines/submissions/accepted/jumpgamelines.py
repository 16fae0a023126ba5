def solve(a):
    reach = 0
    for i, x in enumerate(a):
        if i > reach:
            return "NO"
        reach = max(reach, i + x)
    return "YES"


n = int(input())
a = [int(input()) for _ in range(n)]
print(solve(a))
