#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n) {
    long long k = (n + 1) / 2;
    return std::to_string(k * k);
}

int main() {
    long long n;
    std::cin >> n;
    std::cout << solve(n) << "\n";
}
