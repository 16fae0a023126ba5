#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long c, long long k) {
    return std::to_string(2 * c + 4 * k);
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long c, k;
        std::cin >> c >> k;
        std::cout << solve(c, k) << "\n";
    }
}
