#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long a, long long b, long long c, long long n) {
    long long total = a + b + c + n;
    if (total % 3 != 0) return "NO";
    return std::max({a, b, c}) <= total / 3 ? "YES" : "NO";
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
