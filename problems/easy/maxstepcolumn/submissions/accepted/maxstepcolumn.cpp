#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::vector<long long> &a) {
    long long best = 0;
    for (size_t i = 1; i < a.size(); i++) best = std::max(best, a[i] > a[i - 1] ? a[i] - a[i - 1] : a[i - 1] - a[i]);
    return std::to_string(best);
}

int main() {
    std::vector<long long> a;
    long long x;
    while (std::cin >> x) a.push_back(x);
    std::cout << solve(a) << "\n";
}
