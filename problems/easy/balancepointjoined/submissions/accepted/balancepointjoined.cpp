#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::vector<long long> &a) {
    long long total = 0, left = 0;
    for (long long x : a) total += x;
    for (size_t i = 0; i < a.size(); i++) {
        if (left == total - left - a[i]) return std::to_string(i + 1);
        left += a[i];
    }
    return "-1";
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        int n;
        std::cin >> n;
        std::vector<long long> a(n);
        for (auto &x : a) std::cin >> x;
        std::cout << (i > 1 ? " " : "") << solve(a);
    }
    std::cout << "\n";
}
