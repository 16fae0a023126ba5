#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long h, long long c) {
    return h >= 140 || (h >= 120 && c == 1) ? "YES" : "NO";
}

int main() {
    long long h, c;
    std::cin >> h >> c;
    std::cout << solve(h, c) << "\n";
}
