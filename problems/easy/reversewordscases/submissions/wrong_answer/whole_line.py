# Reverses the whole line: the words come out in reverse order too.
def solve(s):
    return s[::-1]


t = int(input())
for i in range(1, t + 1):
    s = input()
    print(solve(s))
