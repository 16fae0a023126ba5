#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long a, long long b) {
    if (a == 0 || b == 0) return "zero";
    return (a > 0) == (b > 0) ? "positive" : "negative";
}

int main() {
    long long a, b;
    std::cin >> a >> b;
    std::cout << solve(a, b) << "\n";
}
