/* Stores prefix sums and their running minimum: two arrays of n 64-bit values. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    long long n, s, a, b, m;
    if (scanf("%lld %lld %lld %lld %lld", &n, &s, &a, &b, &m) != 5) return 1;
    long long *prefix = malloc((size_t)(n + 1) * sizeof *prefix);
    long long *low = malloc((size_t)(n + 1) * sizeof *low);
    if (!prefix || !low) return 1;
    unsigned long long x = (unsigned long long)s;
    prefix[0] = low[0] = 0;
    long long best = 0;
    for (long long i = 1; i <= n; i++) {
        x = ((unsigned long long)a * x + (unsigned long long)b) % (unsigned long long)m;
        prefix[i] = prefix[i - 1] + (long long)x - m / 2;
        low[i] = prefix[i] < low[i - 1] ? prefix[i] : low[i - 1];
        long long here = prefix[i] - low[i - 1];
        if (i == 1 || here > best) best = here;
    }
    printf("%lld\n", best);
    return 0;
}
