// Kadane's algorithm over the regenerated stream: O(n) time, O(1) memory.
#include <cstdio>

int main() {
    long long n, s, a, b, m;
    if (std::scanf("%lld %lld %lld %lld %lld", &n, &s, &a, &b, &m) != 5) return 1;
    unsigned long long x = s;
    long long half = m / 2, best = 0, current = 0;
    for (long long i = 0; i < n; i++) {
        x = (a * x + b) % m;
        long long v = (long long)x - half;
        current = current > 0 ? current + v : v;
        if (i == 0 || current > best) best = current;
    }
    std::printf("%lld\n", best);
}
