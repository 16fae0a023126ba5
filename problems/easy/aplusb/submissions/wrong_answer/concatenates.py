# Adds the two numbers as text: 3 and 4 give 34.
a, b = input().split()
print(a + b)
