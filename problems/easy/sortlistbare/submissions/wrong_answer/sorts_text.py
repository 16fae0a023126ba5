# Sorts the numbers as text: "10" comes before "9".
def solve(a):
    return " ".join(sorted(map(str, a)))


a = list(map(int, input().split()))
print(solve(a))
