// Kadane with 32-bit sums: overflows on long positive stretches.
#include <cstdio>

int main() {
    long long n, s, a, b, m;
    std::scanf("%lld %lld %lld %lld %lld", &n, &s, &a, &b, &m);
    unsigned long long x = s;
    int best = 0, current = 0;
    for (long long i = 0; i < n; i++) {
        x = (a * x + b) % m;
        int v = (int)((long long)x - m / 2);
        current = current > 0 ? (int)((unsigned)current + (unsigned)v) : v;
        if (i == 0 || current > best) best = current;
    }
    std::printf("%d\n", best);
}
