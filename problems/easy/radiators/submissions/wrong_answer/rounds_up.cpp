#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Prices every radiator at the larger share, s / c rounded up.
std::string solve(long long c, long long s) {
    long long k = (s + c - 1) / c;
    return std::to_string(c * k * k);
}

int main() {
    long long c, s;
    std::cin >> c >> s;
    std::cout << solve(c, s) << "\n";
}
