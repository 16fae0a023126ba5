# Stops while n > 9: the leading digit is never added.
n = int(input())
total = 0
while n > 9:
    total += n % 10
    n //= 10
print(total)
