# Forgets that 1 is not prime.
n = int(input())
prime = True
d = 2
while d * d <= n:
    if n % d == 0:
        prime = False
        break
    d += 1
print("YES" if prime else "NO")
