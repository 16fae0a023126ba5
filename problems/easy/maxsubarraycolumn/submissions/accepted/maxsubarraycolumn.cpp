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
    std::vector<long long> a;
    long long x;
    while (std::cin >> x) a.push_back(x);
    std::cout << solve(a) << "\n";
}
