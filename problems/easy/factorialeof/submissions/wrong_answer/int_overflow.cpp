#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Multiplies in a 32-bit int.
std::string solve(long long n) {
    int result = 1;
    for (int i = 2; i <= n; i++) result = (int)((unsigned)result * (unsigned)i);
    return std::to_string(result);
}

int main() {
    long long n;
    while (std::cin >> n) std::cout << solve(n) << "\n";
}
