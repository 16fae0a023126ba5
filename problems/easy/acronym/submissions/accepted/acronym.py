print("".join(w[0].upper() for w in input().split()))
