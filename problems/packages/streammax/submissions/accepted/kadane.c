/* Kadane's algorithm over the regenerated stream: O(n) time, O(1) memory. */
#include <stdio.h>

int main(void) {
    long long n, s, a, b, m;
    if (scanf("%lld %lld %lld %lld %lld", &n, &s, &a, &b, &m) != 5) return 1;
    unsigned long long x = (unsigned long long)s;
    long long half = m / 2, best = 0, current = 0;
    for (long long i = 0; i < n; i++) {
        x = ((unsigned long long)a * x + (unsigned long long)b) % (unsigned long long)m;
        long long v = (long long)x - half;
        current = current > 0 ? current + v : v;
        if (i == 0 || current > best) best = current;
    }
    printf("%lld\n", best);
    return 0;
}
