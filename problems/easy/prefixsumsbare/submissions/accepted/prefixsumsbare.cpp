#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::vector<long long> &a) {
    std::string out;
    long long total = 0;
    for (size_t i = 0; i < a.size(); i++) {
        total += a[i];
        out += (i ? " " : "") + std::to_string(total);
    }
    return out;
}

int main() {
    std::vector<long long> a;
    long long x;
    while (std::cin >> x) a.push_back(x);
    std::cout << solve(a) << "\n";
}
