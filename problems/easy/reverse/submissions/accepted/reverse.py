s = input().strip()
print(s[::-1])
