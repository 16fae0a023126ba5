#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Multiplies in 32 bits before halving.
std::string solve(long long n) {
    int product = (int)((unsigned)n * (unsigned)(n + 1));
    return std::to_string(product / 2);
}

int main() {
    long long n;
    std::cin >> n;
    std::cout << solve(n) << "\n";
}
