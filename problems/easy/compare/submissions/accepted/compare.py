def solve(a, b):
    return "<" if a < b else ">" if a > b else "="


a, b = map(int, input().split())
print(solve(a, b))
