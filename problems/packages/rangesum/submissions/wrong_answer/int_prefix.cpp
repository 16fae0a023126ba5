// Prefix sums in 32-bit ints: overflow on large values.
#include <cstdio>
#include <vector>

int main() {
    int n, q;
    std::scanf("%d %d", &n, &q);
    std::vector<unsigned> prefix(n + 1, 0);
    for (int i = 1; i <= n; i++) {
        unsigned x;
        std::scanf("%u", &x);
        prefix[i] = prefix[i - 1] + x;
    }
    for (int j = 0; j < q; j++) {
        int l, r;
        std::scanf("%d %d", &l, &r);
        std::printf("%d\n", (int)(prefix[r] - prefix[l - 1]));
    }
}
