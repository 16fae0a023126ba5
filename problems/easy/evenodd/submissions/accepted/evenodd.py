n = int(input())
print("even" if n % 2 == 0 else "odd")
