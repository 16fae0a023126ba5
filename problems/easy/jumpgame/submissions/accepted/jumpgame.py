def solve(a):
    reach = 0
    for i, x in enumerate(a):
        if i > reach:
            return "NO"
        reach = max(reach, i + x)
    return "YES"


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
