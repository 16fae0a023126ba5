#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n, long long k) {
    std::string row;
    for (long long i = 1; i <= k; i++) {
        if (i > 1) row += " ";
        row += std::to_string(n * i);
    }
    return row;
}

int main() {
    long long n, k;
    while (std::cin >> n >> k) std::cout << solve(n, k) << "\n";
}
