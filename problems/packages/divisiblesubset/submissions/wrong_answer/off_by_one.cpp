// Pigeonhole on prefix sums, but the group printed starts one friend too early: it takes
// the friends i..j instead of i+1..j (and index 0 when the first prefix is the empty one).
#include <cstdio>
#include <vector>

int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    std::vector<long long> a(n);
    for (auto& x : a) std::scanf("%lld", &x);
    std::vector<int> first(n, -1);
    first[0] = 0;
    long long prefix = 0;
    for (int j = 1; j <= n; j++) {
        prefix = (prefix + a[j - 1]) % n;
        if (first[prefix] >= 0) {
            int i = first[prefix];
            std::printf("%d\n", j - i + 1);
            for (int t = i; t <= j; t++) std::printf("%d%c", t, t == j ? '\n' : ' ');
            return 0;
        }
        first[prefix] = j;
    }
    return 1;
}
