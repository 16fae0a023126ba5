# Puts a space between the copies.
def solve(s):
    w, k = s.split(" ")
    return " ".join([w] * int(k))


s = input()
print(solve(s))
