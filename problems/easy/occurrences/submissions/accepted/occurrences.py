n, x = map(int, input().split())
print(sum(1 for a in map(int, input().split()) if a == x))
