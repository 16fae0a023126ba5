import sys

MOD = 10**9 + 7
n = int(sys.stdin.readline())
row = [1]
out = []
for _ in range(n):
    out.append(" ".join(map(str, row)))
    row = [1] + [(a + b) % MOD for a, b in zip(row, row[1:])] + [1]
sys.stdout.write("\n".join(out) + "\n")
