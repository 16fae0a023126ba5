#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::vector<long long> &a) {
    size_t m = a.size() / 2;
    std::string out;
    for (size_t i = 0; i < m; i++)
        out += (i ? " " : "") + std::to_string(a[i]) + " " + std::to_string(a[m + i]);
    return out;
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        int n;
        std::cin >> n;
        std::vector<long long> a(n);
        for (auto &x : a) std::cin >> x;
        std::cout << solve(a) << "\n";
    }
}
