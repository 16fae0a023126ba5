def solve(n):
    shown = 5
    likes = 0
    for _ in range(n):
        liked = shown // 2
        likes += liked
        shown = liked * 3
    return likes


n = int(input())
print(solve(n))
