#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Keeps the total in a 32-bit int.
std::string solve(const std::vector<long long> &a) {
    int total = 0;
    for (size_t i = 0; i < a.size(); i++)
        total = (int)((unsigned)total + (unsigned)(i % 2 == 0 ? a[i] : -a[i]));
    return std::to_string(total);
}

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto &x : a) std::cin >> x;
    std::cout << solve(a) << "\n";
}
