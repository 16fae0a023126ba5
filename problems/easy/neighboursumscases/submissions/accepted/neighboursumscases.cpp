#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::vector<long long> &a) {
    std::string out;
    for (size_t i = 0; i + 1 < a.size(); i++)
        out += (i ? " " : "") + std::to_string(a[i] + a[i + 1]);
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
