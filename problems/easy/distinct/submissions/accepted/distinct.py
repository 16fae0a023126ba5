n = int(input())
print(len(set(input().split())))
