#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n, long long k) {
    return std::to_string(n / k);
}

int main() {
    long long n, k;
    while (std::cin >> n >> k) std::cout << solve(n, k) << "\n";
}
