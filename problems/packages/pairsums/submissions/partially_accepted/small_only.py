# Subtask 1 only: tries every pair when n <= 100 and gives up (prints 0) above.
# @EXPECTED_SCORE@: 20
n, k = map(int, input().split())
a = list(map(int, input().split()))
if n > 100:
    print(0)
else:
    print(sum(1 for i in range(n) for j in range(i + 1, n) if a[i] + a[j] == k))
