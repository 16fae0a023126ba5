#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n) {
    long long result = 1;
    for (int i = 2; i <= n; i++) result *= i;
    return std::to_string(result);
}

int main() {
    long long n;
    while (std::cin >> n) std::cout << solve(n) << "\n";
}
