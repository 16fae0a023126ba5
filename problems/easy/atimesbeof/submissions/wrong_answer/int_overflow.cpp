#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Multiplies in 32 bits: the product overflows.
std::string solve(long long a, long long b) {
    int product = (int)((unsigned)a * (unsigned)b);
    return std::to_string(product);
}

int main() {
    long long a, b;
    while (std::cin >> a >> b) std::cout << solve(a, b) << "\n";
}
