def solve(n):
    return "even" if n % 2 == 0 else "odd"


n = int(input())
print(solve(n))
