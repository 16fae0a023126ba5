#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n) {
    int steps = 0;
    while (n > 1) {
        n /= 2;
        steps++;
    }
    return std::to_string(steps);
}

int main() {
    long long n;
    while (std::cin >> n) std::cout << solve(n) << "\n";
}
