#include <cstdio>
#include <string>
#include <vector>

int main() {
    int n, q;
    if (std::scanf("%d %d", &n, &q) != 2) return 1;
    std::vector<long long> prefix(n + 1, 0);
    for (int i = 1; i <= n; i++) {
        long long x;
        std::scanf("%lld", &x);
        prefix[i] = prefix[i - 1] + x;
    }
    std::string out;
    char buf[32];
    for (int j = 0; j < q; j++) {
        int l, r;
        std::scanf("%d %d", &l, &r);
        int len = std::snprintf(buf, sizeof buf, "%lld\n", prefix[r] - prefix[l - 1]);
        out.append(buf, len);
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
}
