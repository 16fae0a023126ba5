#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::vector<long long> &a) {
    std::vector<long long> b;
    for (long long x : a) if (x != 0) b.push_back(x);
    b.resize(a.size(), 0);
    std::string out;
    for (size_t i = 0; i < b.size(); i++) out += (i ? " " : "") + std::to_string(b[i]);
    return out;
}

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto &x : a) std::cin >> x;
    std::cout << solve(a) << "\n";
}
