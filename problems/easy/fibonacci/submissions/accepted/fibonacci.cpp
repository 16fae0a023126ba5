#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n) {
    long long a = 1, b = 1;
    for (long long i = 1; i < n; i++) {
        long long c = a + b;
        a = b;
        b = c;
    }
    return std::to_string(a);
}

int main() {
    long long n;
    std::cin >> n;
    std::cout << solve(n) << "\n";
}
