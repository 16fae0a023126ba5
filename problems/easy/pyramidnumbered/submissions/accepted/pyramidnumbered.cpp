#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n) {
    long long levels = 0, used = 0;
    while (used + (levels + 1) * (levels + 2) / 2 <= n) {
        levels++;
        used += levels * (levels + 1) / 2;
    }
    return std::to_string(levels);
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
