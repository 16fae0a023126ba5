#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long f, long long s) {
    return std::to_string(f - 2 * s);
}

int main() {
    long long f, s;
    std::cin >> f >> s;
    std::cout << solve(f, s) << "\n";
}
