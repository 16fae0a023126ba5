# Wraps the hours at 24, as a clock would.
s = int(input())
print(s // 3600 % 24, s // 60 % 60, s % 60)
