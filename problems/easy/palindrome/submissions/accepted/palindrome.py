s = input().strip()
print("YES" if s == s[::-1] else "NO")
