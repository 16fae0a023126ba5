#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::vector<long long> &a) {
    long long best = a[0];
    for (long long x : a)
        if (std::llabs(x) < std::llabs(best) || (std::llabs(x) == std::llabs(best) && x > best)) best = x;
    return std::to_string(best);
}

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto &x : a) std::cin >> x;
    std::cout << solve(a) << "\n";
}
