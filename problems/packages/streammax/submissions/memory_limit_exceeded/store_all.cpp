// Regenerates all readings into a vector first: 8 bytes per reading, 160 MB at n = 2e7.
#include <cstdio>
#include <vector>

int main() {
    long long n, s, a, b, m;
    std::scanf("%lld %lld %lld %lld %lld", &n, &s, &a, &b, &m);
    std::vector<long long> v(n);
    unsigned long long x = s;
    for (long long i = 0; i < n; i++) {
        x = (a * x + b) % m;
        v[i] = (long long)x - m / 2;
    }
    long long best = v[0], current = 0;
    for (long long i = 0; i < n; i++) {
        current = current > 0 ? current + v[i] : v[i];
        if (current > best) best = current;
    }
    std::printf("%lld\n", best);
}
