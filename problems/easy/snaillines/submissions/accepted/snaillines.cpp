#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long h, long long u, long long d) {
    long long height = 0, day = 0;
    while (true) {
        day++;
        height += u;
        if (height >= h) return std::to_string(day);
        height -= d;
    }
}

int main() {
    long long h, u, d;
    std::cin >> h >> u >> d;
    std::cout << solve(h, u, d) << "\n";
}
