#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n) {
    int digits = 1;
    for (; n >= 10; n /= 10) digits++;
    return std::to_string(digits);
}

int main() {
    long long n;
    std::cin >> n;
    std::cout << solve(n) << "\n";
}
