#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// The area in a 32-bit int.
std::string solve(long long w, long long h) {
    int area = (int)((unsigned)w * (unsigned)h);
    return std::to_string(2 * (w + h)) + " " + std::to_string(area);
}

int main() {
    long long w, h;
    std::cin >> w >> h;
    std::cout << solve(w, h) << "\n";
}
