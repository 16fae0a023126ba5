/* Allows the empty stretch (sum 0): wrong when every reading is negative (the second
 * sample and the all-negative tests). */
#include <stdio.h>

int main(void) {
    long long n, s, a, b, m;
    if (scanf("%lld %lld %lld %lld %lld", &n, &s, &a, &b, &m) != 5) return 1;
    unsigned long long x = (unsigned long long)s;
    long long half = m / 2, best = 0, current = 0;
    for (long long i = 0; i < n; i++) {
        x = ((unsigned long long)a * x + (unsigned long long)b) % (unsigned long long)m;
        current += (long long)x - half;
        if (current < 0) current = 0;
        if (current > best) best = current;
    }
    printf("%lld\n", best);
    return 0;
}
