# Adds up every positive value, as if the chosen values need not be neighbours.
def solve(a):
    positive = [x for x in a if x > 0]
    return sum(positive) if positive else max(a)


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
