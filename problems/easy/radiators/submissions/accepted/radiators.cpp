#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long c, long long s) {
    long long q = s / c, r = s % c;
    return std::to_string(r * (q + 1) * (q + 1) + (c - r) * q * q);
}

int main() {
    long long c, s;
    std::cin >> c >> s;
    std::cout << solve(c, s) << "\n";
}
