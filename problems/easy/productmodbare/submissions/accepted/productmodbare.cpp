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
    std::vector<long long> a;
    long long x;
    while (std::cin >> x) a.push_back(x);
    std::cout << solve(a) << "\n";
}
