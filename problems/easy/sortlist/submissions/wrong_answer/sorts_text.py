# Sorts the numbers as text: "10" comes before "9".
n = int(input())
print(*sorted(input().split()))
