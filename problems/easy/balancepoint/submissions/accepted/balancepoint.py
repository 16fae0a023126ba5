def solve(a):
    left, total = 0, sum(a)
    for i, x in enumerate(a):
        if left == total - left - x:
            return i + 1
        left += x
    return -1


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
