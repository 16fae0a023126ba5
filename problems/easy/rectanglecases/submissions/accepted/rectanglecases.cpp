#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long w, long long h) {
    return std::to_string(2 * (w + h)) + " " + std::to_string(w * h);
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long w, h;
        std::cin >> w >> h;
        std::cout << solve(w, h) << "\n";
    }
}
