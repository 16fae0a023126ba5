# Forgets zero: 0 counts as positive.
n = int(input())
print("positive" if n >= 0 else "negative")
