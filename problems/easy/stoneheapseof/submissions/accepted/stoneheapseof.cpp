#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long a, long long b, long long c) {
    long long best = 0;
    for (long long second = 0; second <= std::min(b, c / 2); second++) {
        long long first = std::min(a, (b - second) / 2);
        best = std::max(best, 3 * (first + second));
    }
    return std::to_string(best);
}

int main() {
    long long a, b, c;
    while (std::cin >> a >> b >> c) std::cout << solve(a, b, c) << "\n";
}
