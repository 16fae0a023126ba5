# Compares with >=, so a tie moves the answer: it gives the last position of the largest value.
def solve(a):
    best = 0
    for i in range(len(a)):
        if a[i] >= a[best]:
            best = i
    return best + 1


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
