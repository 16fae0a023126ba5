#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Always opens the book at the front.
std::string solve(long long n, long long p) {
    return std::to_string(p / 2);
}

int main() {
    long long n, p;
    std::cin >> n >> p;
    std::cout << solve(n, p) << "\n";
}
