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
    long long a, b, c;
    while (std::cin >> a >> b >> c) std::cout << solve(a, b, c) << "\n";
}
