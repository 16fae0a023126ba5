#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n) {
    int digits = 1;
    for (; n >= 10; n /= 10) digits++;
    return std::to_string(digits);
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
