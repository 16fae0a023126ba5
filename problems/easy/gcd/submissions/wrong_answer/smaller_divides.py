# Takes the smaller number when it divides the larger, else 1.
a, b = map(int, input().split())
small, big = min(a, b), max(a, b)
print(small if big % small == 0 else 1)
