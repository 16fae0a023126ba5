#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Adds the terms up in a 32-bit int: a large sum overflows.
std::string solve(long long a, long long d, long long n) {
    int total = 0;
    for (long long i = 0; i < n; i++) total = (int)((unsigned)total + (unsigned)(a + i * d));
    return std::to_string(total);
}

int main() {
    long long a, d, n;
    std::cin >> a >> d >> n;
    std::cout << solve(a, d, n) << "\n";
}
