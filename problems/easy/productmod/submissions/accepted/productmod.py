def solve(a):
    product = 1
    for x in a:
        product = product * x % 1000000007
    return product


n = int(input())
a = list(map(int, input().split()))
print(solve(a))
