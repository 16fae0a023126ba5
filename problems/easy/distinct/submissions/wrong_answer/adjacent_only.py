# Counts changes between neighbours, as if the list were sorted.
n = int(input())
a = input().split()
print(1 + sum(1 for i in range(1, n) if a[i] != a[i - 1]))
