#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Checks the height only after the night's slide.
std::string solve(long long h, long long u, long long d) {
    long long height = 0, day = 0;
    while (height < h) {
        day++;
        height += u - d;
    }
    return std::to_string(day);
}

int main() {
    long long h, u, d;
    std::cin >> h >> u >> d;
    std::cout << solve(h, u, d) << "\n";
}
