#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Keeps the total in a 32-bit int.
std::string solve(const std::vector<long long> &a) {
    std::string out;
    int total = 0;
    for (size_t i = 0; i < a.size(); i++) {
        total = (int)((unsigned)total + (unsigned)a[i]);
        out += (i ? " " : "") + std::to_string(total);
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
