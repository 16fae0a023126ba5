#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long a, long long p) {
    return std::to_string((3 * a + p) / 2);
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long a, p;
        std::cin >> a >> p;
        std::cout << solve(a, p) << "\n";
    }
}
