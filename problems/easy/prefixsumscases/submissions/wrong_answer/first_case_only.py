def solve(a):
    totals, total = [], 0
    for x in a:
        total += x
        totals.append(total)
    return " ".join(map(str, totals))


t = int(input())
for i in range(1, 1 + 1):
    n = int(input())
    a = list(map(int, input().split()))
    print(solve(a))
