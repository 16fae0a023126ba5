/* Computes every entry by the recursive definition, without memoization: exponential. */
#include <stdio.h>

static long long binom(int n, int k) {
    if (k == 0 || k == n) return 1;
    return (binom(n - 1, k - 1) + binom(n - 1, k)) % 1000000007;
}

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) printf(j < i ? "%lld " : "%lld\n", binom(i, j));
    return 0;
}
