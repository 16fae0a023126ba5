# Counts the spaces and adds one: wrong with extra spaces.
print(input().count(" ") + 1)
