#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Multiplies first: the product overflows 64 bits.
std::string solve(long long a, long long b) {
    unsigned long long product = (unsigned long long)a * (unsigned long long)b;
    long long p = (long long)product;
    return std::to_string((p % 10 + 10) % 10);
}

int main() {
    long long a, b;
    while (std::cin >> a >> b) std::cout << solve(a, b) << "\n";
}
