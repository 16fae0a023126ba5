#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long a, long long u, long long b, long long v) {
    if (a == b) return "YES";
    if (u == v) return "NO";
    long long gap = b - a, closing = u - v;
    return gap % closing == 0 && gap / closing > 0 ? "YES" : "NO";
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
