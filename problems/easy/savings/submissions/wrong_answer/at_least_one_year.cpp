#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Adds a year before looking at the balance: s >= g still takes one year.
std::string solve(long long s, long long p, long long g) {
    long long years = 0;
    do {
        s += s * p / 100;
        years++;
    } while (s < g);
    return std::to_string(years);
}

int main() {
    long long s, p, g;
    std::cin >> s >> p >> g;
    std::cout << solve(s, p, g) << "\n";
}
