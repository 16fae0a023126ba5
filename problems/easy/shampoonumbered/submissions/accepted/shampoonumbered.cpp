#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long v, long long a, long long b, long long c) {
    long long left = v % (a + b + c);
    if (left < a) return "father";
    if (left < a + b) return "mother";
    return "child";
}

int main() {
    int t;
    std::cin >> t;
    for (int i = 1; i <= t; i++) {
        long long v, a, b, c;
        std::cin >> v >> a >> b >> c;
        std::cout << "Case #" << i << ": " << solve(v, a, b, c) << "\n";
    }
}
