#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long d, long long h, long long m, long long s) {
    return std::to_string(d * 86400 + h * 3600 + m * 60 + s);
}

int main() {
    long long d, h, m, s;
    std::cin >> d >> h >> m >> s;
    std::cout << solve(d, h, m, s) << "\n";
}
