#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::vector<long long> &a) {
    long long low = a[0], best = 0;
    for (long long x : a) {
        low = std::min(low, x);
        best = std::max(best, x - low);
    }
    return std::to_string(best);
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
