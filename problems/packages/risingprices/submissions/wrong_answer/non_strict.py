# bisect_right: counts non-decreasing picks, so equal prices are taken twice.
import sys
from bisect import bisect_right

data = sys.stdin.buffer.read().split()
tails = []
for p in map(int, data[1:]):
    k = bisect_right(tails, p)
    if k == len(tails):
        tails.append(p)
    else:
        tails[k] = p
print(len(tails))
