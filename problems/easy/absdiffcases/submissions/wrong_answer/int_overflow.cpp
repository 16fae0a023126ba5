#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Subtracts in 32 bits: the distance overflows.
std::string solve(long long a, long long b) {
    int d = (int)((unsigned)a - (unsigned)b);
    return std::to_string(d < 0 ? -(long long)d : d);
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long a, b;
        std::cin >> a >> b;
        std::cout << solve(a, b) << "\n";
    }
}
