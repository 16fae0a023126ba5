n = int(input())
print("positive" if n > 0 else "negative" if n < 0 else "zero")
