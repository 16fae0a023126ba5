#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Uses % alone, which gives a negative remainder for a negative a in C++.
std::string solve(long long a, long long b) {
    return std::to_string(a % b);
}

int main() {
    long long a, b;
    std::cin >> a >> b;
    std::cout << solve(a, b) << "\n";
}
