#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Gives level i only i cubes, as in a staircase.
std::string solve(long long n) {
    long long levels = 0, used = 0;
    while (used + levels + 1 <= n) {
        levels++;
        used += levels;
    }
    return std::to_string(levels);
}

int main() {
    long long n;
    std::cin >> n;
    std::cout << solve(n) << "\n";
}
