#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n) {
    return std::to_string(n * (n + 1) / 2);
}

int main() {
    long long n;
    std::cin >> n;
    std::cout << solve(n) << "\n";
}
