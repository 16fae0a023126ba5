#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Says they meet whenever the one behind is faster: it may jump over the other.
std::string solve(long long a, long long u, long long b, long long v) {
    if (a == b) return "YES";
    return (a < b && u > v) || (b < a && v > u) ? "YES" : "NO";
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long a, u, b, v;
        std::cin >> a >> u >> b >> v;
        std::cout << (i > 1 ? " " : "") << solve(a, u, b, v);
    }
    std::cout << "\n";
}
