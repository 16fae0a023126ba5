def solve(a):
    result = 0
    for x in a:
        result ^= x
    return result


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
