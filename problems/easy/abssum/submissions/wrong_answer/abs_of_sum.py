# Takes the absolute value of the sum instead of adding up the absolute values.
def solve(a):
    return abs(sum(a))


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
