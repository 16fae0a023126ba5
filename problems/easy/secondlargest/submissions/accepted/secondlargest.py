n = int(input())
a = list(map(int, input().split()))
top = max(a)
print(max(x for x in a if x < top))
