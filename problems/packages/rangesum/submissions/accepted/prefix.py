import sys
from itertools import accumulate


def main():
    data = sys.stdin.buffer.read().split()
    n, q = int(data[0]), int(data[1])
    prefix = [0]
    prefix.extend(accumulate(map(int, data[2:2 + n])))
    bounds = data[2 + n:2 + n + 2 * q]
    out = [prefix[int(r)] - prefix[int(l) - 1] for l, r in zip(bounds[::2], bounds[1::2])]
    sys.stdout.write("\n".join(map(str, out)) + "\n")


main()
