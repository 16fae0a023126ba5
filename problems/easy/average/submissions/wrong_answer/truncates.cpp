#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Divides with /, which rounds towards zero for a negative sum.
std::string solve(long long a, long long b) {
    return std::to_string((a + b) / 2);
}

int main() {
    long long a, b;
    std::cin >> a >> b;
    std::cout << solve(a, b) << "\n";
}
