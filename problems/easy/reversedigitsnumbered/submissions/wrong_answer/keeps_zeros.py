# Reverses the text: the zeros at the end of n become leading zeros.
def solve(n):
    return str(n)[::-1]


t = int(input())
for i in range(1, t + 1):
    n = int(input())
    print(f"Case #{i}: {solve(n)}")
