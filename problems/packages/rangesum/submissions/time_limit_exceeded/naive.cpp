// Adds up every range from scratch: O(n q).
#include <cstdio>
#include <vector>

int main() {
    int n, q;
    std::scanf("%d %d", &n, &q);
    std::vector<long long> a(n + 1);
    for (int i = 1; i <= n; i++) std::scanf("%lld", &a[i]);
    for (int j = 0; j < q; j++) {
        int l, r;
        std::scanf("%d %d", &l, &r);
        long long total = 0;
        for (int i = l; i <= r; i++) total += a[i];
        std::printf("%lld\n", total);
    }
}
