// Keeps the prefix sums in a fixed array sized for the samples only, then writes far past it.
#include <cstdio>

static long long prefix[16];

int main() {
    int n, q;
    std::scanf("%d %d", &n, &q);
    long long *p = prefix;
    for (int i = 1; i <= n; i++) {
        long long x;
        std::scanf("%lld", &x);
        p[i] = p[i - 1] + x;
        if (i > 16) p[i * 4096] = p[i];  // far beyond the array: SIGSEGV
    }
    for (int j = 0; j < q; j++) {
        int l, r;
        std::scanf("%d %d", &l, &r);
        std::printf("%lld\n", p[r] - p[l - 1]);
    }
}
