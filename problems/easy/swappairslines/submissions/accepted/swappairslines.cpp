#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(std::vector<long long> a) {
    for (size_t i = 0; i + 1 < a.size(); i += 2) std::swap(a[i], a[i + 1]);
    std::string out;
    for (size_t i = 0; i < a.size(); i++) out += (i ? " " : "") + std::to_string(a[i]);
    return out;
}

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto &x : a) std::cin >> x;
    std::cout << solve(a) << "\n";
}
