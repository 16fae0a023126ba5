#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::vector<long long> &a) {
    std::string out;
    for (size_t i = 1; i <= a.size(); i++)
        out += (i > 1 ? " " : "") + std::to_string(a[i % a.size()]);
    return out;
}

int main() {
    std::vector<long long> a;
    long long x;
    while (std::cin >> x) a.push_back(x);
    std::cout << solve(a) << "\n";
}
