#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long p, long long q, long long d) {
    return std::to_string(p * q * (100 - d) / 100);
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long p, q, d;
        std::cin >> p >> q >> d;
        std::cout << "Case #" << i << ": " << solve(p, q, d) << "\n";
    }
}
