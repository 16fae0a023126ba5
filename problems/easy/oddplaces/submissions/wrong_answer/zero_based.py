# Counts positions from 0: adds a_2, a_4, ... instead.
def solve(a):
    return sum(a[1::2])


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
