#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Adds in 32-bit ints.
std::string solve(long long x1, long long y1, long long x2, long long y2) {
    int dx = (int)std::llabs(x1 - x2), dy = (int)std::llabs(y1 - y2);
    return std::to_string((int)((unsigned)dx + (unsigned)dy));
}

int main() {
    long long x1, y1, x2, y2;
    std::cin >> x1 >> y1 >> x2 >> y2;
    std::cout << solve(x1, y1, x2, y2) << "\n";
}
