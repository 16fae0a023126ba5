#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::vector<long long> &a) {
    return std::to_string(a.back() - a.front());
}

int main() {
    std::vector<long long> a;
    long long x;
    while (std::cin >> x) a.push_back(x);
    std::cout << solve(a) << "\n";
}
