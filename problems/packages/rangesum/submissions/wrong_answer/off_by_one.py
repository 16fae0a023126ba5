# Excludes the right end of each range.
import sys
from itertools import accumulate

data = sys.stdin.buffer.read().split()
n, q = int(data[0]), int(data[1])
prefix = [0] + list(accumulate(map(int, data[2:2 + n])))
bounds = data[2 + n:]
print("\n".join(str(prefix[int(r) - 1] - prefix[int(l) - 1]) for l, r in zip(bounds[::2], bounds[1::2])))
