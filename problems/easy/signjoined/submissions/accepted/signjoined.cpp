#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n) {
    return n > 0 ? "positive" : n < 0 ? "negative" : "zero";
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long n;
        std::cin >> n;
        std::cout << (i > 1 ? " " : "") << solve(n);
    }
    std::cout << "\n";
}
