#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Adds the squares in a 32-bit int.
std::string solve(long long n) {
    int total = 0;
    for (int i = 1; i <= n; i++) total = (int)((unsigned)total + (unsigned)i * (unsigned)i);
    return std::to_string(total);
}

int main() {
    long long n;
    while (std::cin >> n) std::cout << solve(n) << "\n";
}
