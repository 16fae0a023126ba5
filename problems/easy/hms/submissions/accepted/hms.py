s = int(input())
print(s // 3600, s // 60 % 60, s % 60)
