#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Writes x^2 with ^, which is exclusive or in C++ (and binds after +).
std::string solve(long long a, long long b, long long c, long long x) {
    return std::to_string(a * x ^ 2 + b * x + c);
}

int main() {
    long long a, b, c, x;
    std::cin >> a >> b >> c >> x;
    std::cout << solve(a, b, c, x) << "\n";
}
