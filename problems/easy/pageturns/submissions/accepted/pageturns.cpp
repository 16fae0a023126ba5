#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n, long long p) {
    return std::to_string(std::min(p / 2, n / 2 - p / 2));
}

int main() {
    long long n, p;
    std::cin >> n >> p;
    std::cout << solve(n, p) << "\n";
}
