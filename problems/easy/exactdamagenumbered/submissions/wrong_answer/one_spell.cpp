#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Tries one spell alone, or the two spells equally often, not every mix.
std::string solve(long long a, long long b, long long c) {
    return c % a == 0 || c % b == 0 || c % (a + b) == 0 ? "YES" : "NO";
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long a, b, c;
        std::cin >> a >> b >> c;
        std::cout << "Case #" << i << ": " << solve(a, b, c) << "\n";
    }
}
