w, h = map(int, input().split())
print(2 * (w + h), w * h)
