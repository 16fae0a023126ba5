#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long s, long long p, long long g) {
    long long years = 0;
    while (s < g) {
        s += s * p / 100;
        years++;
    }
    return std::to_string(years);
}

int main() {
    long long s, p, g;
    std::cin >> s >> p >> g;
    std::cout << solve(s, p, g) << "\n";
}
