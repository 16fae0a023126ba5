#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n, long long m, long long a, long long b) {
    long long cards = n / m * b + std::min(n % m * a, b);
    return std::to_string(std::min(cards, n * a));
}

int main() {
    long long n, m, a, b;
    std::cin >> n >> m >> a >> b;
    std::cout << solve(n, m, a, b) << "\n";
}
