#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Makes only one kind of tool, the one that uses twice the more plentiful material.
std::string solve(long long a, long long b) {
    return std::to_string(std::min(std::max(a, b) / 2, std::min(a, b)));
}

int main() {
    long long a, b;
    std::cin >> a >> b;
    std::cout << solve(a, b) << "\n";
}
