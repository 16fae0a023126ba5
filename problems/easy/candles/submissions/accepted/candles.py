def solve(a, b):
    hours = a
    stubs = a
    while stubs >= b:
        new = stubs // b
        hours += new
        stubs = stubs % b + new
    return hours


a, b = map(int, input().split())
print(solve(a, b))
