#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long t) {
    if (t < 0) return "ice";
    if (t > 100) return "steam";
    return "water";
}

int main() {
    long long t;
    std::cin >> t;
    std::cout << solve(t) << "\n";
}
