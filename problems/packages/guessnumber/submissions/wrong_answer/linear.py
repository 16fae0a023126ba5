# Asks 1, 2, 3, ...: exceeds the 30-question limit when the number is large.
n = int(input())
for y in range(1, n + 1):
    print("?", y, flush=True)
    if input().strip() == "=":
        print("!", y, flush=True)
        break
