# Forgets the vowel u.
s = input().strip()
print("".join(c for c in s if c not in "aeio"))
