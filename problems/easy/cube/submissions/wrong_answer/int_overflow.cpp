#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Multiplies in 32 bits.
std::string solve(long long n) {
    int x = n;
    int cube = (int)((unsigned)x * (unsigned)x * (unsigned)x);
    return std::to_string(cube);
}

int main() {
    long long n;
    std::cin >> n;
    std::cout << solve(n) << "\n";
}
