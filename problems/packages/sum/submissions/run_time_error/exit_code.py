# Computes the right sum but exits with status 3.
import sys

data = sys.stdin.buffer.read().split()
print(sum(map(int, data[1:])))
sys.exit(3)
