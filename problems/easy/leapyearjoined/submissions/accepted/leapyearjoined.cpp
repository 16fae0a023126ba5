#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long y) {
    return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) ? "YES" : "NO";
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long y;
        std::cin >> y;
        std::cout << (i > 1 ? " " : "") << solve(y);
    }
    std::cout << "\n";
}
