# Runs over all n positions, adding a_n + a_1 at the end as if the list were a circle.
def solve(a):
    return " ".join(str(a[i] + a[(i + 1) % len(a)]) for i in range(len(a)))


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
