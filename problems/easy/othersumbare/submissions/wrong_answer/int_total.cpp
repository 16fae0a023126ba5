#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Keeps the total in a 32-bit int, which overflows.
std::string solve(const std::vector<long long> &a) {
    int total = 0;
    for (long long x : a) total = (int)((unsigned)total + (unsigned)x);
    std::string out;
    for (size_t i = 0; i < a.size(); i++) out += (i ? " " : "") + std::to_string(total - a[i]);
    return out;
}

int main() {
    std::vector<long long> a;
    long long x;
    while (std::cin >> x) a.push_back(x);
    std::cout << solve(a) << "\n";
}
