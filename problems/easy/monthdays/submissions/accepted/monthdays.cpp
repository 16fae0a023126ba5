#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long y, long long m) {
    if (m == 2) return (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? "29" : "28";
    return (m == 4 || m == 6 || m == 9 || m == 11) ? "30" : "31";
}

int main() {
    long long y, m;
    std::cin >> y >> m;
    std::cout << solve(y, m) << "\n";
}
