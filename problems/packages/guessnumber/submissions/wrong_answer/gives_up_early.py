# Asks three questions and exits normally without answering: the program stopped first,
# so the interactor's verdict (a rejection) decides.
n = int(input())
for y in (1, n // 2, n):
    print("?", y, flush=True)
    input()
