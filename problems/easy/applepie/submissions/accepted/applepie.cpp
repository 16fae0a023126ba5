#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long a, long long p) {
    return std::to_string((3 * a + p) / 2);
}

int main() {
    long long a, p;
    std::cin >> a >> p;
    std::cout << solve(a, p) << "\n";
}
