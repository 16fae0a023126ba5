# Reverses the text: the zeros at the end of n become leading zeros.
def solve(n):
    return str(n)[::-1]


n = int(input())
print(solve(n))
