# Counts x as text in the line: 1 is found in 11 and 21 too.
n, x = input().split()
print(input().count(x))
