def solve(a, b):
    hours = a
    stubs = a
    while stubs >= b:
        new = stubs // b
        hours += new
        stubs = stubs % b + new
    return hours


t = int(input())
answers = []
for i in range(1, 1 + 1):
    a, b = map(int, input().split())
    answers.append(str(solve(a, b)))
print(" ".join(answers))
