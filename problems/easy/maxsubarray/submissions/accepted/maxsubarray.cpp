#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::vector<long long> &a) {
    long long best = a[0], current = a[0];
    for (size_t i = 1; i < a.size(); i++) {
        current = std::max(a[i], current + a[i]);
        best = std::max(best, current);
    }
    return std::to_string(best);
}

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto &x : a) std::cin >> x;
    std::cout << solve(a) << "\n";
}
