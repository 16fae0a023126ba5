#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Adds up the people who saw the advertisement, not those who liked it.
std::string solve(long long n) {
    long long shown = 5, total = 0;
    for (long long day = 0; day < n; day++) {
        total += shown;
        shown = shown / 2 * 3;
    }
    return std::to_string(total);
}

int main() {
    long long n;
    while (std::cin >> n) std::cout << solve(n) << "\n";
}
