#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long x) {
    if (x <= 10000) return "0";
    if (x <= 50000) return std::to_string((x - 10000) / 10);
    return std::to_string(4000 + (x - 50000) / 5);
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long x;
        std::cin >> x;
        std::cout << (i > 1 ? " " : "") << solve(x);
    }
    std::cout << "\n";
}
