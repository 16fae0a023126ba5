#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::vector<long long> &a) {
    long long total = 0;
    for (size_t i = 0; i < a.size(); i++) total += i % 2 == 0 ? a[i] : -a[i];
    return std::to_string(total);
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        int n;
        std::cin >> n;
        std::vector<long long> a(n);
        for (auto &x : a) std::cin >> x;
        std::cout << "Case #" << i << ": " << solve(a) << "\n";
    }
}
