#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long a, long long b) {
    return std::to_string(a + b);
}

int main() {
    long long a, b;
    while (std::cin >> a >> b) std::cout << solve(a, b) << "\n";
}
