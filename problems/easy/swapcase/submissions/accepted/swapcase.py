print(input().strip().swapcase())
