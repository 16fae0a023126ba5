#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long r, long long c) {
    int rows = (r == 1 || r == 8) ? 2 : 3;
    int cols = (c == 1 || c == 8) ? 2 : 3;
    return std::to_string(rows * cols - 1);
}

int main() {
    long long r, c;
    std::cin >> r >> c;
    std::cout << solve(r, c) << "\n";
}
