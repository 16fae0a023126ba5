#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Forgets the water already in the first bottle: it takes a whole a millilitres.
std::string solve(long long a, long long b, long long c) {
    return std::to_string(std::max(0LL, c - a));
}

int main() {
    long long a, b, c;
    std::cin >> a >> b >> c;
    std::cout << solve(a, b, c) << "\n";
}
