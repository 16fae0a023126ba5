#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Always opens the book at the front.
std::string solve(long long n, long long p) {
    return std::to_string(p / 2);
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long n, p;
        std::cin >> n >> p;
        std::cout << solve(n, p) << "\n";
    }
}
