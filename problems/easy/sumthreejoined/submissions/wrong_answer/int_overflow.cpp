#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// The sum in a 32-bit int.
std::string solve(long long a, long long b, long long c) {
    int sum = (int)((unsigned)a + (unsigned)b + (unsigned)c);
    return std::to_string(sum);
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long a, b, c;
        std::cin >> a >> b >> c;
        std::cout << (i > 1 ? " " : "") << solve(a, b, c);
    }
    std::cout << "\n";
}
