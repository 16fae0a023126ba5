# Greedy: always hang the letter with the most tiles left that differs from the one just
# hung (ties to the earlier letter). It never gets stuck while no letter has more than
# (n + 1) / 2 tiles; otherwise no order exists.
import heapq
import sys
from collections import Counter


def main():
    s = sys.stdin.readline().strip()
    counts = Counter(s)
    if max(counts.values()) > (len(s) + 1) // 2:
        print("IMPOSSIBLE")
        return
    heap = [(-c, ch) for ch, c in counts.items()]
    heapq.heapify(heap)
    res, held = [], None
    while heap:
        c, ch = heapq.heappop(heap)
        res.append(ch)
        if held:
            heapq.heappush(heap, held)
        held = (c + 1, ch) if c + 1 < 0 else None
    print("".join(res))


main()
