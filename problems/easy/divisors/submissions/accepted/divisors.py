n = int(input())
count = 0
d = 1
while d * d <= n:
    if n % d == 0:
        count += 1 if d * d == n else 2
    d += 1
print(count)
