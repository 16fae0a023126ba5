#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long c) {
    return std::to_string(c * 9 / 5 + 32);
}

int main() {
    long long c;
    while (std::cin >> c) std::cout << solve(c) << "\n";
}
