# Memoized recursion: correct on small inputs, RecursionError once n passes the default limit of 1000.
import sys
from functools import lru_cache

data = sys.stdin.buffer.read().split()
n = int(data[0])
p = list(map(int, data[1:1 + n]))


@lru_cache(maxsize=None)
def ending_at(i):
    """The longest rising pick that ends with p[i]."""
    res = 1
    for j in range(i - 1, -1, -1):
        if p[j] < p[i]:
            res = max(res, ending_at(j) + 1)
    return res


print(max(ending_at(i) for i in range(n - 1, -1, -1)))
