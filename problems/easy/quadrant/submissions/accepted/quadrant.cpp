#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long x, long long y) {
    if (x > 0) return y > 0 ? "1" : "4";
    return y > 0 ? "2" : "3";
}

int main() {
    long long x, y;
    std::cin >> x >> y;
    std::cout << solve(x, y) << "\n";
}
