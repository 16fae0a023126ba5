// Forgets the modulus: 64-bit values overflow from row 67 on.
#include <cstdio>
#include <vector>

int main() {
    int n;
    std::scanf("%d", &n);
    std::vector<unsigned long long> row{1};
    for (int i = 0; i < n; i++) {
        for (size_t j = 0; j < row.size(); j++) std::printf(j + 1 < row.size() ? "%llu " : "%llu\n", row[j]);
        std::vector<unsigned long long> next(row.size() + 1, 1);
        for (size_t j = 1; j < row.size(); j++) next[j] = row[j - 1] + row[j];
        row.swap(next);
    }
}
