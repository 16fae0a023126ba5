# Pigeonhole on prefix sums, taking the LONGEST run of friends between two prefixes with the
# same remainder modulo n (the first and the last prefix with that remainder).
import sys


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    first, last = {}, {}
    prefix = 0
    first[0] = last[0] = 0
    for j in range(1, n + 1):
        prefix = (prefix + int(data[j])) % n
        first.setdefault(prefix, j)
        last[prefix] = j
    r = max(first, key=lambda r: last[r] - first[r])
    i, j = first[r], last[r]
    print(j - i)
    print(" ".join(map(str, range(i + 1, j + 1))))


main()
