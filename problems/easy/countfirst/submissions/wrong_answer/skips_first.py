# Counts the equal values after the first one, leaving a_1 itself out.
def solve(a):
    return sum(1 for x in a[1:] if x == a[0])


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
