#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long a, long long b, long long c, long long d) {
    return std::to_string(std::max(0LL, std::min(b, d) - std::max(a, c)));
}

int main() {
    long long a, b, c, d;
    std::cin >> a >> b >> c >> d;
    std::cout << solve(a, b, c, d) << "\n";
}
