#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Starts both the minimum and the maximum at 0: wrong unless the values straddle 0.
std::string solve(const std::vector<long long> &a) {
    long long lo = 0, hi = 0;
    for (long long x : a) {
        if (x < lo) lo = x;
        if (x > hi) hi = x;
    }
    return std::to_string(hi - lo);
}

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto &x : a) std::cin >> x;
    std::cout << solve(a) << "\n";
}
