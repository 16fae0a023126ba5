#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long a, long long b, long long c) {
    if (a == b && b == c) return "equilateral";
    if (a == b || b == c || a == c) return "isosceles";
    return "scalene";
}

int main() {
    long long a, b, c;
    std::cin >> a >> b >> c;
    std::cout << solve(a, b, c) << "\n";
}
