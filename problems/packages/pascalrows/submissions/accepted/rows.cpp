#include <cstdio>
#include <string>
#include <vector>

int main() {
    const long long MOD = 1000000007;
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    std::vector<long long> row{1};
    std::string out;
    char buf[16];
    for (int i = 0; i < n; i++) {
        for (size_t j = 0; j < row.size(); j++) {
            int len = std::snprintf(buf, sizeof buf, j + 1 < row.size() ? "%lld " : "%lld\n", row[j]);
            out.append(buf, len);
        }
        std::vector<long long> next(row.size() + 1, 1);
        for (size_t j = 1; j < row.size(); j++) next[j] = (row[j - 1] + row[j]) % MOD;
        row.swap(next);
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
}
