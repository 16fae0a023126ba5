#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long a, long long b, long long c) {
    return a < b + c && b < a + c && c < a + b ? "YES" : "NO";
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
