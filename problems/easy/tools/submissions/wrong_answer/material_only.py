# Counts only the material, three pieces a tool, and forgets that each tool
# needs at least one stick and one diamond.
def solve(a, b):
    return (a + b) // 3


a, b = map(int, input().split())
print(solve(a, b))
