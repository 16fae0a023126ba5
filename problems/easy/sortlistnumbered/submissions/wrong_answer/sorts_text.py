# Sorts the numbers as text: "10" comes before "9".
def solve(a):
    return " ".join(sorted(map(str, a)))


t = int(input())
for i in range(1, t + 1):
    n = int(input())
    a = list(map(int, input().split()))
    print(f"Case #{i}: {solve(a)}")
