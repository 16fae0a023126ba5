#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long a, long long b) {
    return std::to_string(std::min({a, b, (a + b) / 3}));
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long a, b;
        std::cin >> a >> b;
        std::cout << (i > 1 ? " " : "") << solve(a, b);
    }
    std::cout << "\n";
}
