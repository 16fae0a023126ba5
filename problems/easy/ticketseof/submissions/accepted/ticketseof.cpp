#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long x) {
    if (x < 12) return "5";
    if (x >= 65) return "7";
    return "10";
}

int main() {
    long long x;
    while (std::cin >> x) std::cout << solve(x) << "\n";
}
