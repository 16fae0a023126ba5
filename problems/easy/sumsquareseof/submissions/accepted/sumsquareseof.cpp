#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n) {
    return std::to_string(n * (n + 1) * (2 * n + 1) / 6);
}

int main() {
    long long n;
    while (std::cin >> n) std::cout << solve(n) << "\n";
}
