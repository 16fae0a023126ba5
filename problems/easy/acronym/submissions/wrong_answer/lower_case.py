# Forgets to change the letters to upper case.
print("".join(w[0] for w in input().split()))
