# Lists the numbers in the order it finds them: decreasing when a > b.
def solve(n, a, b):
    marks = []
    seen = set()
    for i in range(n):
        m = (n - 1 - i) * a + i * b
        if m not in seen:
            seen.add(m)
            marks.append(m)
    return " ".join(str(m) for m in marks)


t = int(input())
for i in range(1, t + 1):
    n, a, b = map(int, input().split())
    print(solve(n, a, b))
