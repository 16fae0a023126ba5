#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Pays either all rides singly or all of them with cards, never a mix.
std::string solve(long long n, long long m, long long a, long long b) {
    return std::to_string(std::min(n * a, (n + m - 1) / m * b));
}

int main() {
    long long n, m, a, b;
    std::cin >> n >> m >> a >> b;
    std::cout << solve(n, m, a, b) << "\n";
}
