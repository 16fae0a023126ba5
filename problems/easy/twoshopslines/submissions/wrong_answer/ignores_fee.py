# Compares the prices of one notebook and forgets the delivery fee.
def solve(a, b, f, q):
    if a < b:
        return "A"
    if b < a:
        return "B"
    return "same"


a = int(input())
b = int(input())
f = int(input())
q = int(input())
print(solve(a, b, f, q))
