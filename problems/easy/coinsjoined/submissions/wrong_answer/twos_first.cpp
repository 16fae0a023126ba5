#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Takes the 2-cent coins before the 5-cent ones: far too many coins.
std::string solve(long long n) {
    return std::to_string(n / 2 + n % 2);
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
