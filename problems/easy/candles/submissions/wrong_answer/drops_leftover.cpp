#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Keeps only the stubs of the new candles: the leftover stubs are lost.
std::string solve(long long a, long long b) {
    long long hours = a, stubs = a;
    while (stubs >= b) {
        long long fresh = stubs / b;
        hours += fresh;
        stubs = fresh;
    }
    return std::to_string(hours);
}

int main() {
    long long a, b;
    std::cin >> a >> b;
    std::cout << solve(a, b) << "\n";
}
