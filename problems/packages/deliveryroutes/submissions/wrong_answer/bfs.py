# Breadth-first search: counts streets instead of adding their times.
import sys
from collections import deque

data = sys.stdin.buffer.read().split()
n, m = int(data[0]), int(data[1])
adj = [[] for _ in range(n + 1)]
for j in range(m):
    u, v, w = int(data[2 + 3 * j]), int(data[3 + 3 * j]), int(data[4 + 3 * j])
    adj[u].append((v, w))
dist = [-1] * (n + 1)
dist[1] = 0
queue = deque([1])
while queue:
    u = queue.popleft()
    for v, w in adj[u]:
        if dist[v] < 0:
            dist[v] = dist[u] + w
            queue.append(v)
print(" ".join(map(str, dist[1:])))
