# Turns lower case into upper case but forgets the other way.
s = input().strip()
print("".join(c.upper() if c.islower() else c for c in s))
