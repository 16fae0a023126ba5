#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Keeps the numbers in 32-bit ints: F_47 and beyond overflow.
std::string solve(long long n) {
    int a = 1, b = 1;
    for (long long i = 1; i < n; i++) {
        int c = (int)((unsigned)a + (unsigned)b);
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
