#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long x1, long long y1, long long x2, long long y2, long long x3, long long y3) {
    return std::to_string(std::llabs((x2 - x1) * (y3 - y1) - (x3 - x1) * (y2 - y1)));
}

int main() {
    long long x1, y1, x2, y2, x3, y3;
    std::cin >> x1 >> y1 >> x2 >> y2 >> x3 >> y3;
    std::cout << solve(x1, y1, x2, y2, x3, y3) << "\n";
}
