// Pigeonhole on prefix sums: among the n + 1 prefixes (the empty one included) two leave the
// same remainder modulo n; the friends between them form a group. This takes the first
// repeat, so the group ends as early as possible.
#include <cstdio>
#include <vector>

int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    std::vector<long long> a(n);
    for (auto& x : a) std::scanf("%lld", &x);
    std::vector<int> first(n, -1);  // remainder -> prefix length that first had it
    first[0] = 0;
    long long prefix = 0;
    for (int j = 1; j <= n; j++) {
        prefix = (prefix + a[j - 1]) % n;
        if (first[prefix] >= 0) {
            int i = first[prefix];
            std::printf("%d\n", j - i);
            for (int t = i + 1; t <= j; t++) std::printf("%d%c", t, t == j ? '\n' : ' ');
            return 0;
        }
        first[prefix] = j;
    }
    return 1;  // unreachable: a repeat always exists
}
