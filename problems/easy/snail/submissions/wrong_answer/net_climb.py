# Divides the depth by the net climb of a whole day: forgets that on its last day
# the snail is out before it slides back.
def solve(h, u, d):
    return (h + (u - d) - 1) // (u - d)


h, u, d = map(int, input().split())
print(solve(h, u, d))
