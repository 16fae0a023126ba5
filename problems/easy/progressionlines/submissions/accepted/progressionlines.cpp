#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long a, long long d, long long n) {
    return std::to_string(n * a + d * (n * (n - 1) / 2));
}

int main() {
    long long a, d, n;
    std::cin >> a >> d >> n;
    std::cout << solve(a, d, n) << "\n";
}
