#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::vector<long long> &a) {
    std::string out;
    long long best = a[0];
    for (size_t i = 0; i < a.size(); i++) {
        best = std::max(best, a[i]);
        out += (i ? " " : "") + std::to_string(best);
    }
    return out;
}

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto &x : a) std::cin >> x;
    std::cout << solve(a) << "\n";
}
