# Counts a_i in the sum on the left: compares a_1 + ... + a_i with a_{i+1} + ... + a_n.
def solve(a):
    left, total = 0, sum(a)
    for i, x in enumerate(a):
        left += x
        if left == total - left:
            return i + 1
    return -1


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
