# Compares the words as they are: Apple and apple come out different.
def solve(s):
    u, v = s.split(" ")
    return "YES" if u == v else "NO"


t = int(input())
answers = []
for i in range(1, t + 1):
    s = input()
    answers.append(str(solve(s)))
print(" ".join(answers))
