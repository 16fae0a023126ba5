# Uses > where the boundaries need >=.
def solve(s):
    if s > 90:
        return "A"
    if s > 80:
        return "B"
    if s > 70:
        return "C"
    if s > 60:
        return "D"
    return "F"


t = int(input())
for i in range(1, t + 1):
    s = int(input())
    print(f"Case #{i}: {solve(s)}")
