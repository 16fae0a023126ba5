# The greedy order, one recursive call per tile: right on short rows, but Python's
# recursion limit (1000 frames) stops it with a RecursionError on long ones.
import sys
from collections import Counter


def hang(counts, last, res):
    if not any(counts.values()):
        return
    best = max((c, ch) for ch, c in counts.items() if ch != last and c > 0)
    counts[best[1]] -= 1
    res.append(best[1])
    hang(counts, best[1], res)


def main():
    s = sys.stdin.readline().strip()
    counts = Counter(s)
    if max(counts.values()) > (len(s) + 1) // 2:
        print("IMPOSSIBLE")
        return
    res = []
    hang(counts, None, res)
    print("".join(res))


main()
