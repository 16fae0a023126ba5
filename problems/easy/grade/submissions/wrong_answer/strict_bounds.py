# Uses > where >= is meant: a score on a boundary gets the lower grade.
s = int(input())
if s > 90:
    print("A")
elif s > 80:
    print("B")
elif s > 70:
    print("C")
elif s > 60:
    print("D")
else:
    print("F")
