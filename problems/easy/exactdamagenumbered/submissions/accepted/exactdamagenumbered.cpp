#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long a, long long b, long long c) {
    for (long long x = 0; a * x <= c; x++)
        if ((c - a * x) % b == 0) return "YES";
    return "NO";
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
