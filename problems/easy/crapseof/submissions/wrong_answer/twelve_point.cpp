#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Forgets that 12 loses: it becomes the point.
std::string solve(long long a, long long b) {
    long long total = a + b;
    if (total == 7 || total == 11) return "win";
    if (total == 2 || total == 3) return "lose";
    return "point";
}

int main() {
    long long a, b;
    while (std::cin >> a >> b) std::cout << solve(a, b) << "\n";
}
