#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Counts the moves instead of the stones: each move takes three.
std::string solve(long long a, long long b, long long c) {
    long long best = 0;
    for (long long second = 0; second <= std::min(b, c / 2); second++)
        best = std::max(best, second + std::min(a, (b - second) / 2));
    return std::to_string(best);
}

int main() {
    long long a, b, c;
    std::cin >> a >> b >> c;
    std::cout << solve(a, b, c) << "\n";
}
