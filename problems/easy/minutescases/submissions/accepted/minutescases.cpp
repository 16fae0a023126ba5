#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long h, long long m) {
    return std::to_string(60 * h + m);
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long h, m;
        std::cin >> h >> m;
        std::cout << solve(h, m) << "\n";
    }
}
