#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long h, long long m) {
    return std::to_string(60 * h + m);
}

int main() {
    long long h, m;
    std::cin >> h >> m;
    std::cout << solve(h, m) << "\n";
}
