#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n) {
    long long result = 0;
    for (; n > 0; n /= 10) result = result * 10 + n % 10;
    return std::to_string(result);
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long n;
        std::cin >> n;
        std::cout << "Case #" << i << ": " << solve(n) << "\n";
    }
}
