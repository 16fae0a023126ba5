#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Keeps each multiple in a 32-bit int: n * i overflows for a large n.
std::string solve(long long n, long long k) {
    std::string row;
    for (int i = 1; i <= k; i++) {
        int x = (int)(n * i);
        if (i > 1) row += " ";
        row += std::to_string(x);
    }
    return row;
}

int main() {
    long long n, k;
    while (std::cin >> n >> k) std::cout << solve(n, k) << "\n";
}
