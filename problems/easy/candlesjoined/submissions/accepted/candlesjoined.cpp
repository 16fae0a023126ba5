#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long a, long long b) {
    long long hours = a, stubs = a;
    while (stubs >= b) {
        long long fresh = stubs / b;
        hours += fresh;
        stubs = stubs % b + fresh;
    }
    return std::to_string(hours);
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long a, b;
        std::cin >> a >> b;
        std::cout << (i > 1 ? " " : "") << solve(a, b);
    }
    std::cout << "\n";
}
