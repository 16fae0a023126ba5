#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long a, long long b) {
    long long d = b - a;
    if (d == 0) return "0";
    if ((d > 0 && d % 2 != 0) || (d < 0 && d % 2 == 0)) return "1";
    return "2";
}

int main() {
    long long a, b;
    std::cin >> a >> b;
    std::cout << solve(a, b) << "\n";
}
