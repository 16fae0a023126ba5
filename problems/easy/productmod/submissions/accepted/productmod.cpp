#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::vector<long long> &a) {
    const long long MOD = 1000000007;
    long long product = 1;
    for (long long x : a) product = product * (x % MOD) % MOD;
    return std::to_string(product);
}

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto &x : a) std::cin >> x;
    std::cout << solve(a) << "\n";
}
