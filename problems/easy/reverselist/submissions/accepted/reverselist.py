n = int(input())
print(*reversed(input().split()))
