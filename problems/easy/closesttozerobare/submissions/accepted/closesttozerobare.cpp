#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::vector<long long> &a) {
    long long best = a[0];
    for (long long x : a)
        if (std::llabs(x) < std::llabs(best) || (std::llabs(x) == std::llabs(best) && x > best)) best = x;
    return std::to_string(best);
}

int main() {
    std::vector<long long> a;
    long long x;
    while (std::cin >> x) a.push_back(x);
    std::cout << solve(a) << "\n";
}
