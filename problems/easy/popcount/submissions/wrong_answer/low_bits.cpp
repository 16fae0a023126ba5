#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Counts the low 32 bits only.
std::string solve(long long n) {
    return std::to_string(__builtin_popcount((unsigned)n));
}

int main() {
    long long n;
    std::cin >> n;
    std::cout << solve(n) << "\n";
}
