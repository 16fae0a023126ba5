#include <cstdio>
#include <unordered_map>
int main() {
    int n;
    long long k;
    if (scanf("%d %lld", &n, &k) != 2) return 1;
    std::unordered_map<long long, long long> seen;
    seen.reserve(2 * n);
    long long pairs = 0;
    for (int i = 0; i < n; i++) {
        long long x;
        scanf("%lld", &x);
        auto it = seen.find(k - x);
        if (it != seen.end()) pairs += it->second;
        seen[x]++;
    }
    printf("%lld\n", pairs);
}
