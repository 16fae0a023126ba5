from collections import Counter

n = int(input())
count = Counter(map(int, input().split()))
most = max(count.values())
print(min(v for v, c in count.items() if c == most))
