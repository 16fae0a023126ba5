#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Adds the squares in a 32-bit int.
std::string solve(long long n) {
    int total = 0;
    for (int i = 1; i <= n; i++) total = (int)((unsigned)total + (unsigned)i * (unsigned)i);
    return std::to_string(total);
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
