import sys


# Uses the formula of the other direction, Fahrenheit to Celsius.
def solve(c):
    return (c - 32) * 5 // 9


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
