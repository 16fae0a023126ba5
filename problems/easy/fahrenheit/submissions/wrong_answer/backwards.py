# Uses the formula of the other direction, Fahrenheit to Celsius.
def solve(c):
    return (c - 32) * 5 // 9


c = int(input())
print(solve(c))
