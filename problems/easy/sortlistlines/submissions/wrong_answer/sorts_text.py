# Sorts the numbers as text: "10" comes before "9".
def solve(a):
    return " ".join(sorted(map(str, a)))


n = int(input())
a = [int(input()) for _ in range(n)]
print(solve(a))
